import { ClientId, OneOf, Text } from '@app/common';
import { TemplateFields } from '../shared/message-fields';
import { CONTENT_MAX, NOTIFICATION_LEVELS, SUBJECT_MAX } from '../shared/message-values';

/** Body of save (updateById: the same fields, all optional, plus the identifier). */
export class NotificationTemplateSave extends TemplateFields {
  @ClientId()
  notificationTemplateId?: string;

  @Text({ max: SUBJECT_MAX, required: true, example: 'Maintenance tonight', description: 'Title (may hold placeholders)' })
  title: string;

  @Text({ max: CONTENT_MAX, required: true, example: 'The service is unavailable from {{start}} to {{end}}.', description: 'Body (may hold placeholders)' })
  content: string;

  @OneOf(NOTIFICATION_LEVELS, { required: true, example: 'INFO', description: 'Importance' })
  level: string;
}
