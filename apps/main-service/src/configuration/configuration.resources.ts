import { ResourceRegistration } from '@app/common';
import { dataDictionaryResource } from './data-dictionary/data-dictionary.resource';
import { dataDictionaryMapResource } from './data-dictionary-map/data-dictionary-map.resource';
import { DataDictionaryTableController } from './data-dictionary-table/data-dictionary-table.controller';
import { dataDictionaryTableResource } from './data-dictionary-table/data-dictionary-table.resource';
import { dataDictionaryTypeResource } from './data-dictionary-type/data-dictionary-type.resource';
import { TranslationController } from './translation/translation.controller';
import { translationResource } from './translation/translation.resource';
import { valueSetResource } from './value-set/value-set.resource';
import { valueSetMapResource } from './value-set-map/value-set-map.resource';
import { ValueSetTableController } from './value-set-table/value-set-table.controller';
import { valueSetTableResource } from './value-set-table/value-set-table.resource';
import { valueSetTypeResource } from './value-set-type/value-set-type.resource';

/** The configuration group's resources: the one place a new resource is registered. */
export const CONFIGURATION_RESOURCES: ResourceRegistration[] = [
  { resource: dataDictionaryResource },
  { resource: dataDictionaryMapResource },
  { resource: dataDictionaryTableResource, controller: DataDictionaryTableController },
  { resource: dataDictionaryTypeResource },
  { resource: translationResource, controller: TranslationController },
  { resource: valueSetResource },
  { resource: valueSetMapResource },
  { resource: valueSetTableResource, controller: ValueSetTableController },
  { resource: valueSetTypeResource },
];

export const CONFIGURATION_ENTITIES = CONFIGURATION_RESOURCES.map((r) => r.resource.entity);
