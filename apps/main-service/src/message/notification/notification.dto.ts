import { ClientId, OneOf, Text } from '@app/common';
import { EpochMillis } from '../../shared/fields';
import { BusinessFields, RecordId } from '../shared/message-fields';
import { CONTENT_MAX, NOTIFICATION_LEVELS, NOTIFICATION_STATUSES, NOTIFICATION_TARGET_TYPES, SUBJECT_MAX } from '../shared/message-values';

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

  @OneOf(NOTIFICATION_LEVELS, { required: true, example: 'INFO', description: 'Importance' })
  level: string;

  @OneOf(NOTIFICATION_TARGET_TYPES, { required: true, example: 'USER', description: 'Who it is for: every user of the tenant, listed users (notification-user), a role' })
  targetType: string;

  @OneOf(NOTIFICATION_STATUSES, { required: true, example: 'PUBLISHED', description: 'Lifecycle state' })
  status: string;

  @EpochMillis({ required: true, example: 1767229200000, description: 'When it is (or was) published' })
  publishTime: number;
}
