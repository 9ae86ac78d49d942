import { defineResource } from '@app/common';
import { messageRoute, NEWEST_FIRST } from '../shared/message-resource';
import { EmailConfigSave } from './email-config.dto';
import { EmailConfig } from './email-config.entity';

export const emailConfigResource = defineResource({
  ...messageRoute('email-config', 'E-mail configuration'),
  entity: EmailConfig,
  idField: 'emailConfigId',
  saveDto: EmailConfigSave,
  filters: ['name', 'host', 'fromAddress', 'enabled'],
  sortable: ['name', 'host', 'port', 'fromAddress', 'enabled'],
  defaultSort: NEWEST_FIRST,
  writeOnly: ['password'],
});
