import { BaseRecord, Field } from '@app/common';
import { Entity } from 'typeorm';
import { Username } from '../../fields/text-fields';
import { RecordId } from '../fields/message-fields';

/**
 * One notification as one user sees it: one live row per notificationId + username. For a USER notification
 * the row is what makes it reach the user; for ALL and ROLE ones it only keeps the user's read and archived state.
 */
@Entity('message_notification_user')
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

  @Field.bool({
    default: false,
    example: false,
    description: 'Whether the user has archived it (left out of the inbox page by default and of the unread count)',
  })
  archived: boolean;
}
