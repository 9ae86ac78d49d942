import { LiveRecordTable, TenantScope } from '@app/common';
import { DataSource } from 'typeorm';
import { Email } from '../email/email.entity';
import { Sms } from '../sms/sms.entity';
import { DeliveryChannel } from './message-delivery.entity';

/** A stored message of either channel, as the dispatcher reads and writes it. */
export type MessageRecord = Email | Sms;

/** The message table of each channel (`idField`: emailId or smsId). */
export function messageTables(dataSource: DataSource): Record<DeliveryChannel, LiveRecordTable<MessageRecord>> {
  const tables = { email: new LiveRecordTable(Email, 'emailId', dataSource), sms: new LiveRecordTable(Sms, 'smsId', dataSource) };
  return tables as unknown as Record<DeliveryChannel, LiveRecordTable<MessageRecord>>;
}

/** The field of each channel's message that names its sender configuration. */
export const CONFIG_FIELD: Record<DeliveryChannel, 'emailConfigId' | 'smsConfigId'> = { email: 'emailConfigId', sms: 'smsConfigId' };

/**
 * The scope the dispatcher works on a message in: the tenant stored with the message, which the scan
 * across tenants found. Its writes keep the rows' lastModifiedUsername (the last person who changed
 * the message): status, retryCount and sendTime tell what delivery did.
 */
export const deliveryScope = (tenantId: string): TenantScope => TenantScope.system('message delivery', tenantId, 'dispatcher');
