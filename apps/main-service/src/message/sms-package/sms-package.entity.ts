import { ApiProperty } from '@nestjs/swagger';
import { Entity, Index, PrimaryColumn } from 'typeorm';
import { ChoiceColumn, IntColumn, NameColumn, RemarkColumn, TimeColumn } from '../../shared/columns';
import { BaseRecord } from '@app/common';
import { CountColumn } from '../shared/message-columns';
import { SMS_PACKAGE_STATUS_DEFAULT, SMS_PACKAGE_STATUSES } from '../shared/message-values';

/** A purchased quota of SMS. Indexes: each exact filter, then createdTime, after (tenant, live). */
@Entity('message_sms_package')
@Index('idx_sms_package_created_time', ['tenantId', 'deleteTime', 'createdTime'])
@Index('idx_sms_package_name', ['tenantId', 'deleteTime', 'name', 'createdTime'])
@Index('idx_sms_package_status', ['tenantId', 'deleteTime', 'status', 'createdTime'])
export class SmsPackage extends BaseRecord {
  @ApiProperty({ example: 'V1StGXR8Z5jdHi6BmyTbc' })
  @PrimaryColumn({ type: 'varchar', length: 32 })
  smsPackageId: string;

  @NameColumn({ example: '10,000 SMS 2026' })
  name: string;

  @IntColumn({ example: 10000, description: 'SMS the package holds' })
  totalCount: number;

  @CountColumn({ example: 1250, description: 'SMS used so far' })
  usedCount: number;

  @TimeColumn({ nullable: true, example: 1798761599999, description: 'When the package expires; null: never' })
  expireTime: number | null;

  @ChoiceColumn(SMS_PACKAGE_STATUSES, { default: SMS_PACKAGE_STATUS_DEFAULT, example: SMS_PACKAGE_STATUS_DEFAULT, description: 'Whether it can be used' })
  status: string;

  @RemarkColumn()
  remark: string | null;
}
