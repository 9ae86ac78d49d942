import { ApiProperty } from '@nestjs/swagger';
import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { BoolColumn, IntColumn, NameColumn, TextColumn } from '../../shared/columns';
import { ConfigRecord } from '../shared/message-columns';
import { EMAIL_MAX, HOST_MAX, SECRET_MAX } from '../shared/message-values';

/** An SMTP sender. Indexes: each exact filter, then createdTime, after (tenant, live): filter + default sort is one range scan. */
@Entity('message_email_config')
@Index('idx_email_config_created_time', ['tenantId', 'deleteTime', 'createdTime'])
@Index('idx_email_config_name', ['tenantId', 'deleteTime', 'name', 'createdTime'])
@Index('idx_email_config_host', ['tenantId', 'deleteTime', 'host', 'createdTime'])
@Index('idx_email_config_from_address', ['tenantId', 'deleteTime', 'fromAddress', 'createdTime'])
@Index('idx_email_config_enabled', ['tenantId', 'deleteTime', 'enabled', 'createdTime'])
export class EmailConfig extends ConfigRecord {
  @ApiProperty({ example: 'V1StGXR8Z5jdHi6BmyTbc' })
  @PrimaryColumn({ type: 'varchar', length: 32 })
  emailConfigId: string;

  @TextColumn(HOST_MAX, { example: 'smtp.example.com', description: 'SMTP server host name or IP address' })
  host: string;

  @IntColumn({ example: 465, description: 'SMTP server port (1 to 65535)' })
  port: number;

  @BoolColumn({ default: false, example: true, description: 'TLS from the first byte (SMTPS, usually port 465); false: plain or STARTTLS' })
  secure: boolean;

  @TextColumn(HOST_MAX, { nullable: true, example: 'noreply@example.com', description: 'SMTP login; null: no authentication' })
  username: string | null;

  /** Write-only: never selected, never documented in the record. */
  @Column({ type: 'varchar', length: SECRET_MAX, nullable: true, select: false })
  password?: string | null;

  @TextColumn(EMAIL_MAX, { example: 'noreply@example.com', description: 'Sender address (From)' })
  fromAddress: string;

  @NameColumn({ nullable: true, example: 'Example Back Office', description: 'Sender display name' })
  fromName: string | null;
}
