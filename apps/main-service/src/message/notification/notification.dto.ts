import { ClientId, Text } from '@app/common';
import { EpochMillis } from '../../shared/fields';
import { BusinessFields, RecordId, State } from '../shared/message-fields';
import {
  CONTENT_MAX,
  NOTIFICATION_LEVEL_DEFAULT,
  NOTIFICATION_LEVELS,
  NOTIFICATION_STATUS_DEFAULT,
  NOTIFICATION_STATUSES,
  NOTIFICATION_TARGET_TYPE_DEFAULT,
  NOTIFICATION_TARGET_TYPES,
  SUBJECT_MAX,
} from '../shared/message-values';

/** Body of save (updateById: the same fields, all optional, plus the identifier). */
export class NotificationSave extends BusinessFields {
  @ClientId()
  notificationId?: string;

  @RecordId({ description: 'The notification template it was made from' })
  notificationTemplateId?: string | null;

  @RecordId({ description: 'The notification configuration (channel) it goes through' })
  notificationConfigId?: string | null;

  @Text({ max: SUBJECT_MAX, required: true, example: 'Maintenance tonight', description: 'Title' })
  title: string;

  @Text({ max: CONTENT_MAX, required: true, example: 'The service is unavailable from 22:00 to 23:00.', description: 'Body' })
  content: string;

  @State(NOTIFICATION_LEVELS, NOTIFICATION_LEVEL_DEFAULT, { description: `Importance (${NOTIFICATION_LEVEL_DEFAULT} when omitted on create)` })
  level?: string;

  @State(NOTIFICATION_TARGET_TYPES, NOTIFICATION_TARGET_TYPE_DEFAULT, {
    description: `Who it is for: every user of the tenant, listed users (notification-user), a role (${NOTIFICATION_TARGET_TYPE_DEFAULT} when omitted on create)`,
  })
  targetType?: string;

  @State(NOTIFICATION_STATUSES, NOTIFICATION_STATUS_DEFAULT, { description: `Lifecycle state (${NOTIFICATION_STATUS_DEFAULT} when omitted on create)` })
  status?: string;

  @EpochMillis({ example: 1767229200000, description: 'When it is (or was) published; null (the default) while a draft' })
  publishTime?: number | null;
}
