import { Field } from '@app/common';
import { Entity, Index } from 'typeorm';
import { MESSAGE_MAX } from '../../fields/text-limits';
import { DeliveryTraceColumn } from '../delivery/delivery-trace';
import { BusinessRecord, Count, DeliveryErrorText, RecordId, State } from '../fields/message-fields';
import { CODE_MAX, SEND_STATUS_DEFAULT, SEND_STATUSES, SMS_CONTENT_MAX, SMS_RECIPIENTS_MAX } from '../fields/message-values';

/** One SMS. */
@Entity('message_sms')
// the dispatcher's scans: the tenants with PENDING live messages, then each one's oldest first
@Index('idx_sms_dispatch', ['status', 'deleteTime', 'tenantId', 'createdTime'])
export class Sms extends BusinessRecord {
  @Field.id()
  smsId: string;

  @RecordId({ description: 'The SMS configuration it is sent with' })
  smsConfigId: string | null;

  @RecordId({ description: 'The SMS template it was made from' })
  smsTemplateId: string | null;

  @Field.textList({
    max: 16,
    format: 'e164',
    maxItems: SMS_RECIPIENTS_MAX,
    required: true,
    example: ['+8613800138000'],
    description: `Recipients (JSON array of up to ${SMS_RECIPIENTS_MAX} E.164 numbers)`,
  })
  phoneNumbers: string[];

  @Field.text({ max: SMS_CONTENT_MAX, required: true, example: 'Your code is 123456', description: 'Text' })
  content: string;

  @Field.text({ max: MESSAGE_MAX, format: 'json', example: '{"code":"123456"}', description: 'Template parameters: JSON object text' })
  params: string | null;

  @State(SEND_STATUSES, SEND_STATUS_DEFAULT, { description: 'Delivery state' })
  status: string;

  @Field.time({ example: 1767229200000, description: 'When it was sent; null until then' })
  sendTime: number | null;

  @DeliveryErrorText('REJECTED HTTP 503')
  errorMessage: string | null;

  @Field.text({ max: CODE_MAX * 2, key: true, example: '900619746936498440^0', description: "The provider's id of the sent message" })
  providerMessageId: string | null;

  @Count({ example: 0, description: 'Attempts after the first' })
  retryCount: number;

  @DeliveryTraceColumn()
  traceContext: string | null;
}
