import { defineResource } from '@app/common';
import { linkOptions, messageRoute } from '../shared/message-resource';
import { EmailTemplateEmailConfigSave } from './email-template-email-config.dto';
import { EmailTemplateEmailConfig } from './email-template-email-config.entity';

export const emailTemplateEmailConfigResource = defineResource({
  ...messageRoute('email-template-email-config', 'E-mail template configuration link'),
  entity: EmailTemplateEmailConfig,
  idField: 'emailTemplateEmailConfigId',
  saveDto: EmailTemplateEmailConfigSave,
  ...linkOptions('emailTemplateId', 'emailConfigId'),
});
