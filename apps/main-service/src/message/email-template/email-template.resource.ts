import { defineResource } from '@app/common';
import { messageRoute, NEWEST_FIRST } from '../resource-options';
import { EmailTemplate } from './email-template.entity';

export const emailTemplateResource = defineResource({
  ...messageRoute('email-template', 'E-mail template'),
  entity: EmailTemplate,
  idField: 'emailTemplateId',
  filters: ['code', 'name', 'contentType', 'language', 'enabled'],
  sortable: ['code', 'name', 'contentType', 'language', 'enabled'],
  defaultSort: NEWEST_FIRST,
  uniqueKey: ['code'],
});
