import { Field } from '@app/common';
import { Entity, Index } from 'typeorm';
import { DeliveryTraceColumn } from '../delivery/delivery-trace';
import { BusinessRecord, Count, DeliveryErrorText, RecordId, State } from '../fields/message-fields';
import { CONTENT_MAX, EMAIL_MAX, EMAIL_RECIPIENTS_MAX, SEND_STATUS_DEFAULT, SEND_STATUSES, SUBJECT_MAX } from '../fields/message-values';

const Addresses = (o: { required?: boolean; example: string[]; description: string }) =>
  Field.textList({
    max: EMAIL_MAX,
    format: 'email',
    maxItems: EMAIL_RECIPIENTS_MAX,
    ...o,
    description: `${o.description} (JSON array of up to ${EMAIL_RECIPIENTS_MAX} addresses)`,
  });

/** One e-mail. */
@Entity('message_email')
// the dispatcher's scans: the tenants with PENDING live messages, then each one's oldest first
@Index('idx_email_dispatch', ['status', 'deleteTime', 'tenantId', 'createdTime'])
export class Email extends BusinessRecord {
  @Field.id()
  emailId: string;

  @RecordId({ description: 'The e-mail configuration it is sent with' })
  emailConfigId: string | null;

  @RecordId({ description: 'The e-mail template it was made from' })
  emailTemplateId: string | null;

  @Field.text({ max: EMAIL_MAX, required: true, key: true, format: 'email', example: 'noreply@example.com', description: 'Sender address' })
  fromAddress: string;

  @Addresses({ required: true, example: ['alice@example.com'], description: 'Recipients' })
  toAddresses: string[];

  @Addresses({ example: ['bob@example.com'], description: 'Copy recipients' })
  ccAddresses: string[] | null;

  @Addresses({ example: ['audit@example.com'], description: 'Blind copy recipients' })
  bccAddresses: string[] | null;

  @Field.text({ max: SUBJECT_MAX, required: true, example: 'Reset your password', description: 'Subject line' })
  subject: string;

  @Field.text({ max: CONTENT_MAX, required: true, example: '<p>Hello Alice, ...</p>', description: 'Body' })
  content: string;

  @State(SEND_STATUSES, SEND_STATUS_DEFAULT, { description: 'Delivery state' })
  status: string;

  @Field.time({ example: 1767229200000, description: 'When it was sent; null until then' })
  sendTime: number | null;

  @DeliveryErrorText('REJECTED SMTP 550')
  errorMessage: string | null;

  @Count({ example: 0, description: 'Attempts after the first' })
  retryCount: number;

  @DeliveryTraceColumn()
  traceContext: string | null;
}
