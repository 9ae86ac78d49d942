import { Field } from '@app/common';
import { Entity } from 'typeorm';
import { LinkRecord, RecordId } from '../fields/message-fields';

/** Links e-mail templates to their e-mail configurations: one live link per pair. */
@Entity('message_email_template_email_config')
export class EmailTemplateEmailConfig extends LinkRecord {
  @Field.id()
  emailTemplateEmailConfigId: string;

  @RecordId({ required: true, description: 'The e-mail template' })
  emailTemplateId: string;

  @RecordId({ required: true, description: 'The e-mail configuration' })
  emailConfigId: string;
}
