import { defineResource } from '@app/common';
import { Translation } from './translation.entity';

export const translationResource = defineResource({
  path: 'system-api/configuration/translation',
  tag: 'configuration: translation',
  permission: 'configuration-translation',
  title: 'Translation',
  entity: Translation,
  idField: 'translationId',
  filters: ['language', 'namespace', 'key', 'draft'],
  sortable: ['language', 'namespace', 'key'],
  defaultSort: [['createdTime', 'ASC']],
  uniqueKey: ['language', 'namespace', 'key'],
  // the workbook importList reads (translation-import.ts): an exported sheet imports back unchanged
  exportSheet: ['language', 'namespace', 'key', 'value'],
});
