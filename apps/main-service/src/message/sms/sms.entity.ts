import { ApiProperty } from '@nestjs/swagger';
import { Entity, Index, PrimaryColumn } from 'typeorm';
import { ChoiceColumn, MessageColumn, TextColumn, TextListColumn, TimeColumn } from '../../shared/columns';
import { BusinessRecord, CountColumn, RecordIdColumn } from '../shared/message-columns';
import { CODE_MAX, SEND_STATUS_DEFAULT, SEND_STATUSES, SMS_CONTENT_MAX } from '../shared/message-values';

/** One SMS. Indexes: each exact filter, then sendTime, after (tenant, live): filter + range + default sort is one index range scan. */
@Entity('message_sms')
@Index('idx_sms_send_time', ['tenantId', 'deleteTime', 'sendTime'])
@Index('idx_sms_business_id', ['tenantId', 'deleteTime', 'businessId', 'sendTime'])
@Index('idx_sms_business_type', ['tenantId', 'deleteTime', 'businessType', 'sendTime'])
@Index('idx_sms_sms_config_id', ['tenantId', 'deleteTime', 'smsConfigId', 'sendTime'])
@Index('idx_sms_sms_template_id', ['tenantId', 'deleteTime', 'smsTemplateId', 'sendTime'])
@Index('idx_sms_provider_message_id', ['tenantId', 'deleteTime', 'providerMessageId', 'sendTime'])
@Index('idx_sms_status', ['tenantId', 'deleteTime', 'status', 'sendTime'])
export class Sms extends BusinessRecord {
  @ApiProperty({ example: 'V1StGXR8Z5jdHi6BmyTbc' })
  @PrimaryColumn({ type: 'varchar', length: 32 })
  smsId: string;

  @RecordIdColumn({ nullable: true, description: 'The SMS configuration it is sent with' })
  smsConfigId: string | null;

  @RecordIdColumn({ nullable: true, description: 'The SMS template it was made from' })
  smsTemplateId: string | null;

  @TextListColumn({ example: ['+8613800138000'], description: 'Recipients (JSON array of E.164 numbers)' })
  phoneNumbers: string[];

  @TextColumn(SMS_CONTENT_MAX, { example: 'Your code is 123456', description: 'Text' })
  content: string;

  @MessageColumn({ nullable: true, example: '{"code":"123456"}', description: 'Template parameters: JSON object text' })
  params: string | null;

  @ChoiceColumn(SEND_STATUSES, { default: SEND_STATUS_DEFAULT, example: SEND_STATUS_DEFAULT, description: 'Delivery state' })
  status: string;

  @TimeColumn({ nullable: true, example: 1767229200000, description: 'When it was sent; null until then' })
  sendTime: number | null;

  @MessageColumn({ nullable: true, example: 'isv.MOBILE_NUMBER_ILLEGAL', description: 'Why the last attempt failed' })
  errorMessage: string | null;

  @TextColumn(CODE_MAX * 2, { nullable: true, example: '900619746936498440^0', description: "The provider's id of the sent message" })
  providerMessageId: string | null;

  @CountColumn({ example: 0, description: 'Attempts after the first' })
  retryCount: number;
}

