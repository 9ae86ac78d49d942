import { defineResource } from '@app/common';
import { ValueSetTypeSave } from './value-set-type.dto';
import { ValueSetType } from './value-set-type.entity';

export const valueSetTypeResource = defineResource({
  path: 'system-api/configuration/value-set-type',
  tag: 'configuration / value-set-type',
  permission: 'value-set-type',
  title: 'Value set type',
  entity: ValueSetType,
  idField: 'valueSetTypeId',
  saveDto: ValueSetTypeSave,
  filters: ['valueSetTypeCode'],
  sortable: ['valueSetTypeCode', 'sort'],
  defaultSort: [['sort', 'ASC'], ['createdTime', 'ASC']],
  uniqueKey: ['valueSetTypeCode'],
  importList: 'sync',
});
