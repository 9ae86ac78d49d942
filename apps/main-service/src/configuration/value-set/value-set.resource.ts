import { defineResource } from '@app/common';
import { ValueSet } from './value-set.entity';

export const valueSetResource = defineResource({
  path: 'system-api/configuration/value-set',
  tag: 'configuration: value-set',
  permission: 'value-set',
  title: 'Value set',
  entity: ValueSet,
  idField: 'valueSetId',
  filters: ['valueSetTypeCode', 'value'],
  sortable: ['valueSetTypeCode', 'value', 'sort'],
  defaultSort: [
    ['sort', 'ASC'],
    ['createdTime', 'ASC'],
  ],
  uniqueKey: ['valueSetTypeCode', 'value'],
  importList: 'sync',
});
