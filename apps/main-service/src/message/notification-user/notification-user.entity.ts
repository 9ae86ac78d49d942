import { BaseRecord, Field } from '@app/common';
import { Entity, Index } from 'typeorm';
import { Username } from '../../fields/text-fields';
import { RecordId } from '../fields/message-fields';

/**
 * One notification as one user sees it: one live row per notificationId + username. Indexes: each exact
 * filter, then readTime, after (tenant, live): filter + range + default sort is one index range scan.
 */
@Entity('message_notification_user')
@Index('uk_notification_user_key', ['tenantId', 'notificationId', 'username', 'deleteTime'], { unique: true })
@Index('idx_notification_user_read_time', ['tenantId', 'deleteTime', 'readTime'])
@Index('idx_notification_user_username', ['tenantId', 'deleteTime', 'username', 'readTime'])
@Index('idx_notification_user_notification_id', ['tenantId', 'deleteTime', 'notificationId', 'readTime'])
@Index('idx_notification_user_read', ['tenantId', 'deleteTime', 'read', 'readTime'])
export class NotificationUser extends BaseRecord {
  @Field.id()
  notificationUserId: string;

  @RecordId({ required: true, description: 'The notification' })
  notificationId: string;

  @Username({ required: true, description: 'The user it is for' })
  username: string;

  /** `read` is an SQL keyword: the column is is_read. */
  @Field.bool({ name: 'is_read', default: false, example: false, description: 'Whether the user has read it' })
  read: boolean;

  @Field.time({ example: 1767229200000, description: 'When the user read it; null while unread' })
  readTime: number | null;
}
