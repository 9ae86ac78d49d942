import { defineResource } from '@app/common';
import { ValueSetType } from './value-set-type.entity';

export const valueSetTypeResource = defineResource({
  path: 'system-api/configuration/value-set-type',
  tag: 'configuration: value-set-type',
  permission: 'value-set-type',
  title: 'Value set type',
  entity: ValueSetType,
  idField: 'valueSetTypeId',
  filters: ['valueSetTypeCode'],
  sortable: ['valueSetTypeCode', 'sort'],
  defaultSort: [
    ['sort', 'ASC'],
    ['createdTime', 'ASC'],
  ],
  uniqueKey: ['valueSetTypeCode'],
  importList: 'sync',
});
