import { CrudModule, ErrorTextOverrides } from '@app/common';
import { Global, Module } from '@nestjs/common';
import { ThrottlerModule } from '@nestjs/throttler';
import { GeneralConfigurationController } from './base/general-configuration.controller';
import { CONFIGURATION_RESOURCES } from './configuration.resources';
import { DataSource } from 'typeorm';
import { translationThrottling } from './translation/save-missing-limit';
import { TranslationBundleController } from './translation/translation-bundle.controller';
import { TranslationBundles } from './translation/translation-bundles';
import { TranslationErrorTranslator } from './translation/translation-error.translator';
import { MainServiceConfig } from '../main-service.config';

/** Global so the exception filter finds the error translator. */
@Global()
@Module({
  imports: [
    CrudModule.register(CONFIGURATION_RESOURCES),
    // the anonymous translation routes' limits per client address, counted in the database so that all replicas share them
    ThrottlerModule.forRootAsync({
      inject: [MainServiceConfig, DataSource],
      useFactory: (config: MainServiceConfig, dataSource: DataSource) =>
        translationThrottling({ saveMissing: config.saveMissingRateLimit, load: config.translationLoadRateLimit }, dataSource),
    }),
  ],
  controllers: [GeneralConfigurationController, TranslationBundleController],
  providers: [{ provide: ErrorTextOverrides, useClass: TranslationErrorTranslator }, TranslationBundles],
  exports: [ErrorTextOverrides],
})
export class ConfigurationModule {}
