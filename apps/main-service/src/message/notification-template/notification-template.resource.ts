import { defineResource } from '@app/common';
import { messageRoute, NEWEST_FIRST } from '../resource-options';
import { NotificationTemplate } from './notification-template.entity';

export const notificationTemplateResource = defineResource({
  ...messageRoute('notification-template', 'Notification template'),
  entity: NotificationTemplate,
  idField: 'notificationTemplateId',
  filters: ['code', 'name', 'level', 'enabled'],
  sortable: ['code', 'name', 'level', 'enabled'],
  defaultSort: NEWEST_FIRST,
  uniqueKey: ['code'],
});
