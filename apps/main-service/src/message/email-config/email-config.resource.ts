import { defineResource } from '@app/common';
import { messageRoute, NEWEST_FIRST } from '../resource-options';
import { EmailConfig } from './email-config.entity';

export const emailConfigResource = defineResource({
  ...messageRoute('email-config', 'E-mail configuration'),
  entity: EmailConfig,
  idField: 'emailConfigId',
  filters: ['name', 'host', 'fromAddress', 'enabled'],
  sortable: ['name', 'host', 'port', 'fromAddress', 'enabled'],
  defaultSort: NEWEST_FIRST,
});
