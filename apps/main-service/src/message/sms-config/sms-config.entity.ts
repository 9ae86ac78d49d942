import { ApiProperty } from '@nestjs/swagger';
import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { TextColumn } from '../../shared/columns';
import { CodeColumn, ConfigRecord } from '../shared/message-columns';
import { CODE_MAX, SECRET_MAX, URL_MAX } from '../shared/message-values';

/** An SMS provider account. Indexes: each exact filter, then createdTime, after (tenant, live). */
@Entity('message_sms_config')
@Index('idx_sms_config_created_time', ['tenantId', 'deleteTime', 'createdTime'])
@Index('idx_sms_config_name', ['tenantId', 'deleteTime', 'name', 'createdTime'])
@Index('idx_sms_config_provider', ['tenantId', 'deleteTime', 'provider', 'createdTime'])
@Index('idx_sms_config_access_key_id', ['tenantId', 'deleteTime', 'accessKeyId', 'createdTime'])
@Index('idx_sms_config_enabled', ['tenantId', 'deleteTime', 'enabled', 'createdTime'])
export class SmsConfig extends ConfigRecord {
  @ApiProperty({ example: 'V1StGXR8Z5jdHi6BmyTbc' })
  @PrimaryColumn({ type: 'varchar', length: 32 })
  smsConfigId: string;

  @CodeColumn({ example: 'aliyun', description: 'SMS provider (a code of the caller, e.g. aliyun, tencent, twilio)' })
  provider: string;

  @TextColumn(URL_MAX, { nullable: true, example: 'https://dysmsapi.aliyuncs.com', description: "Provider API endpoint; null: the provider's default" })
  endpoint: string | null;

  @CodeColumn({ nullable: true, example: 'cn-hangzhou', description: 'Provider region' })
  region: string | null;

  @TextColumn(CODE_MAX * 2, { example: 'LTAI5tExampleKeyId', description: 'Access key id of the provider account' })
  accessKeyId: string;

  /** Write-only: never selected, never documented in the record. */
  @Column({ type: 'varchar', length: SECRET_MAX, select: false })
  accessKeySecret?: string;

  @CodeColumn({ nullable: true, example: 'Example', description: 'Signature shown to recipients, as registered with the provider' })
  signName: string | null;
}
