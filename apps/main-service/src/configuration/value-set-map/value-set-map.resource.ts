import { defineResource } from '@app/common';
import { ValueSetMap } from './value-set-map.entity';

export const valueSetMapResource = defineResource({
  path: 'system-api/configuration/value-set-map',
  tag: 'configuration: value-set-map',
  permission: 'value-set-map',
  title: 'Value set map',
  entity: ValueSetMap,
  idField: 'valueSetMapId',
  filters: ['valueSetTypeCode', 'key'],
  sortable: ['valueSetTypeCode', 'key', 'sort'],
  defaultSort: [
    ['sort', 'ASC'],
    ['createdTime', 'ASC'],
  ],
  uniqueKey: ['valueSetTypeCode', 'key'],
  importList: 'sync',
});
