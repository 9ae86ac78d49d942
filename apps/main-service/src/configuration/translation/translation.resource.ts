import { defineResource } from '@app/common';
import { TranslationSave } from './translation.dto';
import { Translation } from './translation.entity';

export const translationResource = defineResource({
  path: 'system-api/configuration/translation',
  tag: 'configuration / translation',
  permission: 'configuration-translation',
  title: 'Translation',
  entity: Translation,
  idField: 'translationId',
  saveDto: TranslationSave,
  filters: ['language', 'namespace', 'key', 'draft'],
  sortable: ['language', 'namespace', 'key'],
  defaultSort: [['createdTime', 'ASC']],
  uniqueKey: ['language', 'namespace', 'key'],
});
