import { AppConfig, CrudModule, ErrorTranslator } from '@app/common';
import { Global, Module } from '@nestjs/common';
import { ThrottlerModule } from '@nestjs/throttler';
import { GeneralConfigurationController } from './base/general-configuration.controller';
import { CONFIGURATION_RESOURCES } from './configuration.resources';
import { TranslationErrorTranslator } from './translation/translation-error.translator';

/** Global so the exception filter finds the error translator. */
@Global()
@Module({
  imports: [
    CrudModule.register(CONFIGURATION_RESOURCES),
    ThrottlerModule.forRootAsync({
      inject: [AppConfig],
      useFactory: (config: AppConfig) => [{ ttl: 60_000, limit: config.saveMissingRateLimit }],
    }),
  ],
  controllers: [GeneralConfigurationController],
  providers: [{ provide: ErrorTranslator, useClass: TranslationErrorTranslator }],
  exports: [ErrorTranslator],
})
export class ConfigurationModule {}
