import { defineResource } from '@app/common';
import { ValueSetSave } from './value-set.dto';
import { ValueSet } from './value-set.entity';

export const valueSetResource = defineResource({
  path: 'system-api/configuration/value-set',
  tag: 'configuration / value-set',
  permission: 'value-set',
  title: 'Value set',
  entity: ValueSet,
  idField: 'valueSetId',
  saveDto: ValueSetSave,
  filters: ['valueSetTypeCode', 'value'],
  sortable: ['valueSetTypeCode', 'value', 'sort'],
  defaultSort: [['sort', 'ASC'], ['createdTime', 'ASC']],
  uniqueKey: ['valueSetTypeCode', 'value'],
  importList: 'sync',
});
