import { LIVE } from '@app/common';
import { Injectable } from '@nestjs/common';
import { DataSource, SelectQueryBuilder } from 'typeorm';
import { Email } from '../email/email.entity';
import { EmailConfig } from '../email-config/email-config.entity';
import { EmailTemplate } from '../email-template/email-template.entity';
import { Sms } from '../sms/sms.entity';
import { SmsConfig } from '../sms-config/sms-config.entity';
import { SmsTemplate } from '../sms-template/sms-template.entity';
import { CHANNEL_TABLES } from './delivery-claims';
import { DeliveryFailure } from './delivery-failure';
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
  constructor(private readonly dataSource: DataSource) {}

  /** The live message if it is still PENDING (an operator may have changed or deleted it meanwhile). */
  async pendingEmail(tenantId: string, emailId: string): Promise<Email | null> {
    return this.dataSource.getRepository(Email).findOne({ where: { tenantId, emailId, deleteTime: LIVE, status: 'PENDING' } });
  }

  async pendingSms(tenantId: string, smsId: string): Promise<Sms | null> {
    return this.dataSource.getRepository(Sms).findOne({ where: { tenantId, smsId, deleteTime: LIVE, status: 'PENDING' } });
  }

  async emailTemplate(tenantId: string, emailTemplateId: string): Promise<EmailTemplate | null> {
    return this.dataSource.getRepository(EmailTemplate).findOne({ where: { tenantId, emailTemplateId, deleteTime: LIVE } });
  }

  async smsTemplate(tenantId: string, smsTemplateId: string): Promise<SmsTemplate | null> {
    return this.dataSource.getRepository(SmsTemplate).findOne({ where: { tenantId, smsTemplateId, deleteTime: LIVE } });
  }

  async emailConfig(tenantId: string, emailConfigId: string | null): Promise<EmailConfigWithPassword> {
    const query = this.dataSource.getRepository(EmailConfig).createQueryBuilder('c').addSelect('c.password');
    return (await this.senderConfig('e-mail', query, tenantId, emailConfigId, 'emailConfigId')) as EmailConfigWithPassword;
  }

  async smsConfig(tenantId: string, smsConfigId: string | null): Promise<SmsConfigWithSecret> {
    const query = this.dataSource.getRepository(SmsConfig).createQueryBuilder('c').addSelect('c.accessKeySecret');
    return (await this.senderConfig('SMS', query, tenantId, smsConfigId, 'smsConfigId')) as SmsConfigWithSecret;
  }

  /** Records an attempt's outcome on a message that is still live and PENDING; false when it no longer is. */
  async recordAttempt(channel: DeliveryChannel, tenantId: string, messageId: string, outcome: AttemptOutcome): Promise<boolean> {
    const { entity, idField } = CHANNEL_TABLES[channel];
    const result = await this.dataSource
      .createQueryBuilder()
      .update(entity)
      .set({ ...outcome, revision: () => 'revision + 1', lastModifiedTime: Date.now() })
      .where({ tenantId, [idField]: messageId, deleteTime: LIVE, status: 'PENDING' })
      .execute();
    return (result.affected ?? 0) > 0;
  }

  private async senderConfig<T extends { enabled: boolean }>(
    kind: string,
    query: SelectQueryBuilder<T>,
    tenantId: string,
    id: string | null,
    idField: string,
  ): Promise<T> {
    query.where({ tenantId, deleteTime: LIVE });
    if (id) {
      const named = await query.andWhere({ [idField]: id }).getOne();
      if (!named) throw new DeliveryFailure(`${kind} configuration ${id} not found`, true);
      if (!named.enabled) throw new DeliveryFailure(`${kind} configuration ${id} is disabled`, true);
      return named;
    }
    const enabled = await query.andWhere({ enabled: true }).orderBy('c.createdTime', 'ASC').limit(2).getMany();
    if (!enabled.length) throw new DeliveryFailure(`no enabled ${kind} configuration`, true);
    if (enabled.length > 1) throw new DeliveryFailure(`several enabled ${kind} configurations: set ${idField}`, true);
    return enabled[0];
  }
}
