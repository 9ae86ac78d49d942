import { defineResource } from '@app/common';
import { ValueSetTable } from './value-set-table.entity';

export const valueSetTableResource = defineResource({
  path: 'system-api/configuration/value-set-table',
  tag: 'configuration: value-set-table',
  permission: 'value-set-table',
  title: 'Value set table',
  entity: ValueSetTable,
  idField: 'valueSetTableId',
  filters: ['valueSetTypeCode', 'row'],
  sortable: ['valueSetTypeCode', 'row', 'sort'],
  defaultSort: [
    ['sort', 'ASC'],
    ['createdTime', 'ASC'],
  ],
  uniqueKey: ['valueSetTypeCode', 'row', 'key'],
  importList: 'sync',
});
