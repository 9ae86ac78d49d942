import { Field } from '@app/common';
import { Entity } from 'typeorm';
import { LinkRecord, RecordId } from '../fields/message-fields';

/** Links SMS templates to their SMS configurations: one live link per pair. */
@Entity('message_sms_template_sms_config')
export class SmsTemplateSmsConfig extends LinkRecord {
  @Field.id()
  smsTemplateSmsConfigId: string;

  @RecordId({ required: true, description: 'The SMS template' })
  smsTemplateId: string;

  @RecordId({ required: true, description: 'The SMS configuration' })
  smsConfigId: string;
}
