import { defineResource } from '@app/common';
import { messageRoute } from '../resource-options';
import { Notification } from './notification.entity';

export const notificationResource = defineResource({
  ...messageRoute('notification', 'Notification'),
  entity: Notification,
  idField: 'notificationId',
  filters: ['businessId', 'businessType', 'notificationTemplateId', 'notificationConfigId', 'level', 'targetType', 'status'],
  timeRange: 'publishTime',
  sortable: ['publishTime', 'title', 'level', 'targetType', 'status', 'businessType'],
  defaultSort: [['publishTime', 'DESC']],
});
