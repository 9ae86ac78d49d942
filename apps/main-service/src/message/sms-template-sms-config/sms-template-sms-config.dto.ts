import { ClientId } from '@app/common';
import { LinkFields, RecordId } from '../shared/message-fields';

/** Body of save (updateById: the same fields, all optional, plus the identifier). */
export class SmsTemplateSmsConfigSave extends LinkFields {
  @ClientId()
  smsTemplateSmsConfigId?: string;

  @RecordId({ required: true, description: 'The SMS template' })
  smsTemplateId: string;

  @RecordId({ required: true, description: 'The SMS configuration' })
  smsConfigId: string;
}
