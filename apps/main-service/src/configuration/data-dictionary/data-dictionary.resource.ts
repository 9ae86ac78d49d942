import { defineResource } from '@app/common';
import { DataDictionary } from './data-dictionary.entity';

export const dataDictionaryResource = defineResource({
  path: 'system-api/configuration/data-dictionary',
  tag: 'configuration: data-dictionary',
  permission: 'configuration-data-dictionary',
  title: 'Data dictionary',
  entity: DataDictionary,
  idField: 'dataDictionaryId',
  filters: ['dataDictionaryTypeCode', 'dataDictionaryCode'],
  sortable: ['dataDictionaryTypeCode', 'dataDictionaryCode', 'sort'],
  defaultSort: [
    ['sort', 'ASC'],
    ['createdTime', 'ASC'],
  ],
  uniqueKey: ['dataDictionaryTypeCode', 'dataDictionaryCode'],
  importList: { async: { topic: 'configuration.data-dictionary.import' } },
  listCache: true,
});
