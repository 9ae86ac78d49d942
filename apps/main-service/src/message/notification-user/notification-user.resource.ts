import { defineResource } from '@app/common';
import { messageRoute } from '../resource-options';
import { NotificationUser } from './notification-user.entity';

export const notificationUserResource = defineResource({
  ...messageRoute('notification-user', 'Notification user'),
  entity: NotificationUser,
  idField: 'notificationUserId',
  filters: ['username', 'notificationId', 'read'],
  timeRange: 'readTime',
  sortable: ['readTime', 'username', 'read'],
  defaultSort: [['readTime', 'DESC']],
  uniqueKey: ['notificationId', 'username'],
});
