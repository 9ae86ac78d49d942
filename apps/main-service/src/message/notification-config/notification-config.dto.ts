import { ClientId, OneOf } from '@app/common';
import { ConfigFields } from '../shared/message-fields';
import { NOTIFICATION_CHANNELS } from '../shared/message-values';

/** Body of save (updateById: the same fields, all optional, plus the identifier). */
export class NotificationConfigSave extends ConfigFields {
  @ClientId()
  notificationConfigId?: string;

  @OneOf(NOTIFICATION_CHANNELS, { required: true, example: 'IN_APP', description: 'Where notifications are delivered' })
  channel: string;
}
