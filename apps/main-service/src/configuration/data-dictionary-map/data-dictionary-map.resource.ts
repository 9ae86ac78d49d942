import { defineResource } from '@app/common';
import { DataDictionaryMap } from './data-dictionary-map.entity';

export const dataDictionaryMapResource = defineResource({
  path: 'system-api/configuration/data-dictionary-map',
  tag: 'configuration: data-dictionary-map',
  permission: 'configuration-data-dictionary-map',
  title: 'Data dictionary map',
  entity: DataDictionaryMap,
  idField: 'dataDictionaryMapId',
  filters: ['dataDictionaryTypeCode', 'dataDictionaryCode', 'key'],
  sortable: ['dataDictionaryTypeCode', 'dataDictionaryCode', 'key', 'sort'],
  defaultSort: [
    ['sort', 'ASC'],
    ['createdTime', 'ASC'],
  ],
  uniqueKey: ['dataDictionaryTypeCode', 'dataDictionaryCode', 'key'],
  importList: 'sync',
});
