import { defineResource } from '@app/common';
import { ValueSetMapSave } from './value-set-map.dto';
import { ValueSetMap } from './value-set-map.entity';

export const valueSetMapResource = defineResource({
  path: 'system-api/configuration/value-set-map',
  tag: 'configuration / value-set-map',
  permission: 'value-set-map',
  title: 'Value set map',
  entity: ValueSetMap,
  idField: 'valueSetMapId',
  saveDto: ValueSetMapSave,
  filters: ['valueSetTypeCode', 'key'],
  sortable: ['valueSetTypeCode', 'key', 'sort'],
  defaultSort: [['sort', 'ASC'], ['createdTime', 'ASC']],
  uniqueKey: ['valueSetTypeCode', 'key'],
  importList: 'sync',
});
