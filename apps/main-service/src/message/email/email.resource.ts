import { defineResource } from '@app/common';
import { messageRoute } from '../shared/message-resource';
import { EmailSave } from './email.dto';
import { Email } from './email.entity';

export const emailResource = defineResource({
  ...messageRoute('email', 'E-mail'),
  entity: Email,
  idField: 'emailId',
  saveDto: EmailSave,
  filters: ['businessId', 'businessType', 'emailConfigId', 'emailTemplateId', 'fromAddress', 'status'],
  timeRange: 'sendTime',
  sortable: ['sendTime', 'status', 'fromAddress', 'subject', 'retryCount', 'businessType'],
  defaultSort: [['sendTime', 'DESC']],
});
