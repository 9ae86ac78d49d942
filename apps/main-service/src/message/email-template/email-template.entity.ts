import { Field, LANGUAGE_TAG_MAX } from '@app/common';
import { Entity } from 'typeorm';
import { TemplateRecord } from '../fields/message-fields';
import { CONTENT_MAX, CONTENT_TYPES, SUBJECT_MAX } from '../fields/message-values';

/** An e-mail template; code unique per tenant among live records. */
@Entity('message_email_template')
export class EmailTemplate extends TemplateRecord {
  @Field.id()
  emailTemplateId: string;

  @Field.text({ max: SUBJECT_MAX, required: true, example: 'Reset your password', description: 'Subject line (may hold placeholders)' })
  subject: string;

  @Field.text({ max: CONTENT_MAX, required: true, example: '<p>Hello {{name}}, ...</p>', description: 'Body (may hold placeholders)' })
  content: string;

  @Field.oneOf(CONTENT_TYPES, { required: true, example: 'html', description: 'How the body is sent' })
  contentType: string;

  @Field.text({ max: LANGUAGE_TAG_MAX, key: true, format: 'bcp47', example: 'en', description: 'Language of the template (BCP 47)' })
  language: string | null;
}
