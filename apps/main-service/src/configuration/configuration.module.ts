import { AppConfig, CrudModule, ErrorTranslator } from '@app/common';
import { Global, Module } from '@nestjs/common';
import { ThrottlerModule } from '@nestjs/throttler';
import { GeneralConfigurationController } from './base/general-configuration.controller';
import { dataDictionaryResource } from './data-dictionary/data-dictionary.resource';
import { dataDictionaryMapResource } from './data-dictionary-map/data-dictionary-map.resource';
import { DataDictionaryTableController } from './data-dictionary-table/data-dictionary-table.controller';
import { dataDictionaryTableResource } from './data-dictionary-table/data-dictionary-table.resource';
import { dataDictionaryTypeResource } from './data-dictionary-type/data-dictionary-type.resource';
import { TranslationErrorTranslator } from './translation/translation-error.translator';
import { TranslationController } from './translation/translation.controller';
import { translationResource } from './translation/translation.resource';
import { valueSetResource } from './value-set/value-set.resource';
import { valueSetMapResource } from './value-set-map/value-set-map.resource';
import { ValueSetTableController } from './value-set-table/value-set-table.controller';
import { valueSetTableResource } from './value-set-table/value-set-table.resource';
import { valueSetTypeResource } from './value-set-type/value-set-type.resource';

const resources = CrudModule.register([
  dataDictionaryResource,
  dataDictionaryMapResource,
  { resource: dataDictionaryTableResource, controller: DataDictionaryTableController },
  dataDictionaryTypeResource,
  { resource: translationResource, controller: TranslationController },
  valueSetResource,
  valueSetMapResource,
  { resource: valueSetTableResource, controller: ValueSetTableController },
  valueSetTypeResource,
]);

/** Global so the exception filter finds the error translator. */
@Global()
@Module({
  imports: [
    resources,
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
