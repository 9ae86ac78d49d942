import { defineResource } from '@app/common';
import { DataDictionaryType } from './data-dictionary-type.entity';

export const dataDictionaryTypeResource = defineResource({
  path: 'system-api/configuration/data-dictionary-type',
  tag: 'configuration: data-dictionary-type',
  permission: 'configuration-data-dictionary-type',
  title: 'Data dictionary type',
  entity: DataDictionaryType,
  idField: 'dataDictionaryTypeId',
  filters: ['dataDictionaryTypeCode'],
  sortable: ['dataDictionaryTypeCode', 'sort'],
  defaultSort: [
    ['sort', 'ASC'],
    ['createdTime', 'ASC'],
  ],
  uniqueKey: ['dataDictionaryTypeCode'],
  importList: 'sync',
  listCache: true,
});
