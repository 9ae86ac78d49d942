import { Field } from '@app/common';
import { Entity } from 'typeorm';
import { BusinessRecord, RecordId, State } from '../fields/message-fields';
import {
  CONTENT_MAX,
  NOTIFICATION_LEVEL_DEFAULT,
  NOTIFICATION_LEVELS,
  NOTIFICATION_STATUS_DEFAULT,
  NOTIFICATION_STATUSES,
  NOTIFICATION_TARGET_TYPE_DEFAULT,
  NOTIFICATION_TARGET_TYPES,
  ROLE_MAX,
  SUBJECT_MAX,
} from '../fields/message-values';

/** One notification. */
@Entity('message_notification')
export class Notification extends BusinessRecord {
  @Field.id()
  notificationId: string;

  @RecordId({ description: 'The notification template it was made from' })
  notificationTemplateId: string | null;

  @RecordId({ description: 'The notification configuration (channel) it goes through' })
  notificationConfigId: string | null;

  @Field.text({ max: SUBJECT_MAX, required: true, example: 'Maintenance tonight', description: 'Title' })
  title: string;

  @Field.text({ max: CONTENT_MAX, required: true, example: 'The service is unavailable from 22:00 to 23:00.', description: 'Body' })
  content: string;

  @State(NOTIFICATION_LEVELS, NOTIFICATION_LEVEL_DEFAULT, { description: 'Importance' })
  level: string;

  @State(NOTIFICATION_TARGET_TYPES, NOTIFICATION_TARGET_TYPE_DEFAULT, {
    example: 'USER',
    description: 'Who it is for: every user of the tenant, listed users (notification-user), a role',
  })
  targetType: string;

  /** One role per notification: the inbox finds a caller's ROLE notifications by an equality on it (docs/decisions.md). */
  @Field.text({
    max: ROLE_MAX,
    key: true,
    example: 'auditor',
    description:
      "For targetType ROLE: the role whose holders it reaches (a name in the token's roles, matched exactly); " +
      'a ROLE notification without one reaches nobody. Ignored for ALL and USER',
  })
  targetRole: string | null;

  @State(NOTIFICATION_STATUSES, NOTIFICATION_STATUS_DEFAULT, { example: 'PUBLISHED', description: 'Lifecycle state' })
  status: string;

  @Field.time({ example: 1767229200000, description: 'When it is (or was) published; null while a draft' })
  publishTime: number | null;
}
