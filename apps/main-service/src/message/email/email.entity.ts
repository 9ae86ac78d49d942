import { ApiProperty } from '@nestjs/swagger';
import { Entity, Index, PrimaryColumn } from 'typeorm';
import { BodyTextColumn, ChoiceColumn, MessageColumn, TextColumn, TextListColumn, TimeColumn } from '../../shared/columns';
import { BusinessRecord, CountColumn, RecordIdColumn } from '../shared/message-columns';
import { EMAIL_MAX, SEND_STATUS_DEFAULT, SEND_STATUSES, SUBJECT_MAX } from '../shared/message-values';

/** One e-mail. Indexes: each exact filter, then sendTime, after (tenant, live): filter + range + default sort is one index range scan. */
@Entity('message_email')
@Index('idx_email_send_time', ['tenantId', 'deleteTime', 'sendTime'])
@Index('idx_email_business_id', ['tenantId', 'deleteTime', 'businessId', 'sendTime'])
@Index('idx_email_business_type', ['tenantId', 'deleteTime', 'businessType', 'sendTime'])
@Index('idx_email_email_config_id', ['tenantId', 'deleteTime', 'emailConfigId', 'sendTime'])
@Index('idx_email_email_template_id', ['tenantId', 'deleteTime', 'emailTemplateId', 'sendTime'])
@Index('idx_email_from_address', ['tenantId', 'deleteTime', 'fromAddress', 'sendTime'])
@Index('idx_email_status', ['tenantId', 'deleteTime', 'status', 'sendTime'])
export class Email extends BusinessRecord {
  @ApiProperty({ example: 'V1StGXR8Z5jdHi6BmyTbc' })
  @PrimaryColumn({ type: 'varchar', length: 32 })
  emailId: string;

  @RecordIdColumn({ nullable: true, description: 'The e-mail configuration it is sent with' })
  emailConfigId: string | null;

  @RecordIdColumn({ nullable: true, description: 'The e-mail template it was made from' })
  emailTemplateId: string | null;

  @TextColumn(EMAIL_MAX, { example: 'noreply@example.com', description: 'Sender address' })
  fromAddress: string;

  @TextListColumn({ example: ['alice@example.com'], description: 'Recipients (JSON array of addresses)' })
  toAddresses: string[];

  @TextListColumn({ nullable: true, example: ['bob@example.com'], description: 'Copy recipients' })
  ccAddresses: string[] | null;

  @TextListColumn({ nullable: true, example: ['audit@example.com'], description: 'Blind copy recipients' })
  bccAddresses: string[] | null;

  @TextColumn(SUBJECT_MAX, { example: 'Reset your password', description: 'Subject line' })
  subject: string;

  @BodyTextColumn({ example: '<p>Hello Alice, ...</p>', description: 'Body' })
  content: string;

  @ChoiceColumn(SEND_STATUSES, { default: SEND_STATUS_DEFAULT, example: SEND_STATUS_DEFAULT, description: 'Delivery state' })
  status: string;

  @TimeColumn({ nullable: true, example: 1767229200000, description: 'When it was sent; null until then' })
  sendTime: number | null;

  @MessageColumn({ nullable: true, example: '550 mailbox unavailable', description: 'Why the last attempt failed' })
  errorMessage: string | null;

  @CountColumn({ example: 0, description: 'Attempts after the first' })
  retryCount: number;
}
