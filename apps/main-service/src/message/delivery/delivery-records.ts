import { LiveRecordTable, TenantFilter, TenantScope, writeStamp } from '@app/common';
import { tracingStarted } from '@app/common/tracing/tracing-switch';
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Email } from '../email/email.entity';
import { EmailConfig } from '../email-config/email-config.entity';
import { EmailTemplate } from '../email-template/email-template.entity';
import { Sms } from '../sms/sms.entity';
import { SmsConfig } from '../sms-config/sms-config.entity';
import { SmsTemplate } from '../sms-template/sms-template.entity';
import { DeliveryFailure } from './delivery-failure';
import { MessageRecord, messageTables } from './delivery-tables';
import { pickSenderConfig } from './sender-config';
import { DeliveryChannel } from './message-delivery.entity';

/** A configuration with its write-only secret, read on purpose (the column is never selected otherwise). */
export type EmailConfigWithPassword = EmailConfig & { password: string | null };
export type SmsConfigWithSecret = SmsConfig & { accessKeySecret: string };

/** What the dispatcher writes on a message row after an attempt. */
export interface AttemptOutcome {
  status: 'PENDING' | 'SENT' | 'FAILED';
  /** Attempts so far, this one included. */
  retryCount: number;
  errorMessage?: string | null;
  sendTime?: number;
  providerMessageId?: string;
}

/**
 * The message group's rows as the dispatcher reads and writes them, always within one tenant and among
 * live rows. Configurations: the message's own, or the tenant's one enabled configuration.
 */
@Injectable()
export class DeliveryRecords {
  private readonly messages: Record<DeliveryChannel, LiveRecordTable<MessageRecord>>;
  private readonly emails: LiveRecordTable<Email>;
  private readonly smses: LiveRecordTable<Sms>;
  private readonly emailTemplates: LiveRecordTable<EmailTemplate>;
  private readonly smsTemplates: LiveRecordTable<SmsTemplate>;
  private readonly emailConfigs: LiveRecordTable<EmailConfig>;
  private readonly smsConfigs: LiveRecordTable<SmsConfig>;

  constructor(dataSource: DataSource) {
    this.messages = messageTables(dataSource);
    this.emails = this.messages.email as LiveRecordTable<Email>;
    this.smses = this.messages.sms as LiveRecordTable<Sms>;
    this.emailTemplates = new LiveRecordTable(EmailTemplate, 'emailTemplateId', dataSource);
    this.smsTemplates = new LiveRecordTable(SmsTemplate, 'smsTemplateId', dataSource);
    this.emailConfigs = new LiveRecordTable(EmailConfig, 'emailConfigId', dataSource);
    this.smsConfigs = new LiveRecordTable(SmsConfig, 'smsConfigId', dataSource);
  }

  /** The live message if it is still PENDING (an operator may have changed or deleted it meanwhile). */
  pendingEmail(scope: TenantScope, emailId: string): Promise<Email | null> {
    return this.emails.findOne(scope, { emailId, status: 'PENDING' });
  }

  pendingSms(scope: TenantScope, smsId: string): Promise<Sms | null> {
    return this.smses.findOne(scope, { smsId, status: 'PENDING' });
  }

  /** The trace the message's last write left (delivery-trace.ts); read only while tracing runs, else null. */
  async traceOf(channel: DeliveryChannel, scope: TenantScope, messageId: string): Promise<string | null> {
    if (!tracingStarted()) return null;
    const table = this.messages[channel];
    const filter = { [table.idField]: messageId } as TenantFilter<MessageRecord>;
    return (await table.findOne(scope, filter, { select: { traceContext: true } }))?.traceContext ?? null;
  }

  emailTemplate(scope: TenantScope, emailTemplateId: string): Promise<EmailTemplate | null> {
    return this.emailTemplates.findOne(scope, { emailTemplateId });
  }

  smsTemplate(scope: TenantScope, smsTemplateId: string): Promise<SmsTemplate | null> {
    return this.smsTemplates.findOne(scope, { smsTemplateId });
  }

  async emailConfig(scope: TenantScope, emailConfigId: string | null): Promise<EmailConfigWithPassword> {
    return (await this.senderConfig('e-mail', this.emailConfigs, 'password', scope, emailConfigId)) as EmailConfigWithPassword;
  }

  async smsConfig(scope: TenantScope, smsConfigId: string | null): Promise<SmsConfigWithSecret> {
    return (await this.senderConfig('SMS', this.smsConfigs, 'accessKeySecret', scope, smsConfigId)) as SmsConfigWithSecret;
  }

  /**
   * Records an attempt's outcome on a message that is still live and PENDING; false when it no longer is.
   * Revision and lastModifiedTime move; lastModifiedUsername stays (see deliveryScope); the history entry names `system`.
   */
  async recordAttempt(channel: DeliveryChannel, scope: TenantScope, messageId: string, outcome: AttemptOutcome): Promise<boolean> {
    const table = this.messages[channel];
    const changes = { ...outcome, revision: () => 'revision + 1', lastModifiedTime: Date.now(), ...writeStamp(scope) };
    const filter = { [table.idField]: messageId, status: 'PENDING' } as TenantFilter<MessageRecord>;
    return (await table.updateColumns(scope, filter, changes as never)) > 0;
  }

  /** The message's configuration (see pickSenderConfig) with its write-only `secret` column; none is a permanent failure. */
  private async senderConfig<T extends EmailConfig | SmsConfig>(
    kind: string,
    table: LiveRecordTable<T>,
    secret: string,
    scope: TenantScope,
    id: string | null,
  ): Promise<T> {
    const picked = await pickSenderConfig(kind, table, scope, id, secret);
    if (picked.problem !== undefined) throw new DeliveryFailure(picked.problem, true);
    return picked.config;
  }
}
