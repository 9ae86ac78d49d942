import { defineResource } from '@app/common';
import { withDeliveryTrace } from '../delivery/delivery-trace';
import { messageRoute } from '../resource-options';
import { checkEmailFromAddress } from './email-from-address';
import { Email } from './email.entity';

export const emailResource = defineResource({
  ...messageRoute('email', 'E-mail'),
  entity: Email,
  idField: 'emailId',
  filters: ['businessId', 'businessType', 'emailConfigId', 'emailTemplateId', 'fromAddress', 'status'],
  timeRange: 'sendTime',
  sortable: ['sendTime', 'status', 'fromAddress', 'subject', 'retryCount', 'businessType'],
  defaultSort: [['sendTime', 'DESC']],
  toColumns: withDeliveryTrace,
  checkWrite: checkEmailFromAddress,
});
