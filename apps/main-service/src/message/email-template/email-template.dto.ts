import { ClientId, OneOf, Text } from '@app/common';
import { TemplateFields } from '../shared/message-fields';
import { CONTENT_MAX, CONTENT_TYPES, LANGUAGE_MAX, SUBJECT_MAX } from '../shared/message-values';

/** Body of save (updateById: the same fields, all optional, plus the identifier). */
export class EmailTemplateSave extends TemplateFields {
  @ClientId()
  emailTemplateId?: string;

  @Text({ max: SUBJECT_MAX, required: true, example: 'Reset your password', description: 'Subject line (may hold placeholders)' })
  subject: string;

  @Text({ max: CONTENT_MAX, required: true, example: '<p>Hello {{name}}, ...</p>', description: 'Body (may hold placeholders)' })
  content: string;

  @OneOf(CONTENT_TYPES, { required: true, example: 'html', description: 'How the body is sent' })
  contentType: string;

  @Text({ max: LANGUAGE_MAX, key: true, format: 'bcp47', example: 'en', description: 'Language of the template (BCP 47)' })
  language?: string | null;
}
