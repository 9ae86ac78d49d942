import { defineResource } from '@app/common';
import { linkOptions, messageRoute } from '../resource-options';
import { EmailTemplateEmailConfig } from './email-template-email-config.entity';

export const emailTemplateEmailConfigResource = defineResource({
  ...messageRoute('email-template-email-config', 'E-mail template configuration link'),
  entity: EmailTemplateEmailConfig,
  idField: 'emailTemplateEmailConfigId',
  ...linkOptions('emailTemplateId', 'emailConfigId'),
});
