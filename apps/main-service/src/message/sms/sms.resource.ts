import { defineResource } from '@app/common';
import { withDeliveryTrace } from '../delivery/delivery-trace';
import { messageRoute } from '../resource-options';
import { Sms } from './sms.entity';

export const smsResource = defineResource({
  ...messageRoute('sms', 'SMS'),
  entity: Sms,
  idField: 'smsId',
  filters: ['businessId', 'businessType', 'smsConfigId', 'smsTemplateId', 'providerMessageId', 'status'],
  timeRange: 'sendTime',
  sortable: ['sendTime', 'status', 'retryCount', 'businessType'],
  defaultSort: [['sendTime', 'DESC']],
  toColumns: withDeliveryTrace,
});
