import { defineResource } from '@app/common';
import { DataDictionaryTable } from './data-dictionary-table.entity';

export const dataDictionaryTableResource = defineResource({
  path: 'system-api/configuration/data-dictionary-table',
  tag: 'configuration: data-dictionary-table',
  permission: 'configuration-data-dictionary-table',
  title: 'Data dictionary table',
  entity: DataDictionaryTable,
  idField: 'dataDictionaryTableId',
  filters: ['dataDictionaryTypeCode', 'dataDictionaryCode', 'row'],
  sortable: ['dataDictionaryTypeCode', 'dataDictionaryCode', 'row', 'sort'],
  defaultSort: [
    ['sort', 'ASC'],
    ['createdTime', 'ASC'],
  ],
  uniqueKey: ['dataDictionaryTypeCode', 'dataDictionaryCode', 'row', 'key'],
  importList: 'sync',
});
