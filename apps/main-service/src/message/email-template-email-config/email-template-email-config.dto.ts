import { ClientId } from '@app/common';
import { LinkFields, RecordId } from '../shared/message-fields';

/** Body of save (updateById: the same fields, all optional, plus the identifier). */
export class EmailTemplateEmailConfigSave extends LinkFields {
  @ClientId()
  emailTemplateEmailConfigId?: string;

  @RecordId({ required: true, description: 'The e-mail template' })
  emailTemplateId: string;

  @RecordId({ required: true, description: 'The e-mail configuration' })
  emailConfigId: string;
}
