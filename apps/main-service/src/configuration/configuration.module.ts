import { CrudModule, ErrorTextOverrides } from '@app/common';
import { Global, Module } from '@nestjs/common';
import { ThrottlerModule } from '@nestjs/throttler';
import { GeneralConfigurationController } from './base/general-configuration.controller';
import { CONFIGURATION_RESOURCES } from './configuration.resources';
import { DataSource } from 'typeorm';
import { saveMissingThrottling } from './translation/save-missing-limit';
import { TranslationErrorTranslator } from './translation/translation-error.translator';
import { MainServiceConfig } from '../main-service.config';

/** Global so the exception filter finds the error translator. */
@Global()
@Module({
  imports: [
    CrudModule.register(CONFIGURATION_RESOURCES),
    // saveMissing's limit per client address, counted in the database so that all replicas share it
    ThrottlerModule.forRootAsync({
      inject: [MainServiceConfig, DataSource],
      useFactory: (config: MainServiceConfig, dataSource: DataSource) => saveMissingThrottling(config.saveMissingRateLimit, dataSource),
    }),
  ],
  controllers: [GeneralConfigurationController],
  providers: [{ provide: ErrorTextOverrides, useClass: TranslationErrorTranslator }],
  exports: [ErrorTextOverrides],
})
export class ConfigurationModule {}
