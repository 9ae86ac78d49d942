import { Field } from '@app/common';
import { Entity } from 'typeorm';
import { TemplateRecord } from '../fields/message-fields';
import { CONTENT_MAX, NOTIFICATION_LEVELS, SUBJECT_MAX } from '../fields/message-values';

/** A notification template; code unique per tenant among live records. */
@Entity('message_notification_template')
export class NotificationTemplate extends TemplateRecord {
  @Field.id()
  notificationTemplateId: string;

  @Field.text({ max: SUBJECT_MAX, required: true, example: 'Maintenance tonight', description: 'Title (may hold placeholders)' })
  title: string;

  @Field.text({
    max: CONTENT_MAX,
    required: true,
    example: 'The service is unavailable from {{start}} to {{end}}.',
    description: 'Body (may hold placeholders)',
  })
  content: string;

  @Field.oneOf(NOTIFICATION_LEVELS, { required: true, example: 'INFO', description: 'Importance' })
  level: string;
}
