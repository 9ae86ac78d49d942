import { Bool, ClientId } from '@app/common';
import { EpochMillis, Username } from '../../shared/fields';
import { RecordId } from '../shared/message-fields';

/** Body of save (updateById: the same fields, all optional, plus the identifier). */
export class NotificationUserSave {
  @ClientId()
  notificationUserId?: string;

  @RecordId({ required: true, description: 'The notification' })
  notificationId: string;

  @Username({ required: true, description: 'The user it is for' })
  username: string;

  @Bool({ nullable: false, default: false, example: false, description: 'Whether the user has read it (false when omitted)' })
  read?: boolean;

  @EpochMillis({ example: 1767229200000, description: 'When the user read it; null while unread' })
  readTime?: number | null;
}
