import { defineResource } from '@app/common';
import { messageRoute, NEWEST_FIRST } from '../shared/message-resource';
import { NotificationConfigSave } from './notification-config.dto';
import { NotificationConfig } from './notification-config.entity';

export const notificationConfigResource = defineResource({
  ...messageRoute('notification-config', 'Notification configuration'),
  entity: NotificationConfig,
  idField: 'notificationConfigId',
  saveDto: NotificationConfigSave,
  filters: ['name', 'channel', 'enabled'],
  sortable: ['name', 'channel', 'enabled'],
  defaultSort: NEWEST_FIRST,
});
