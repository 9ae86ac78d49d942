import { AppException, LiveRecordTable, TenantScope } from '@app/common';
import { DataSource } from 'typeorm';
import { pickSenderConfig } from '../delivery/sender-config';
import { EmailConfig } from '../email-config/email-config.entity';

/** The domain of an address (domains compare without case). */
const domainOf = (address: string) => address.slice(address.lastIndexOf('@') + 1).toLowerCase();

/**
 * Why an e-mail configuration refuses the From address `address`, or undefined when it allows it: its own
 * fromAddress and the other addresses of that domain, or any address when allowAnyFromAddress is set.
 */
export function fromAddressRefusal(config: EmailConfig, address: string): string | undefined {
  if (config.allowAnyFromAddress || domainOf(address) === domainOf(config.fromAddress)) return undefined;
  return `fromAddress must be an address of ${domainOf(config.fromAddress)}: e-mail configuration ${config.emailConfigId} allows no other sender`;
}

const configTables = new WeakMap<DataSource, LiveRecordTable<EmailConfig>>();

/**
 * checkWrite of e-mails: the From address against the configuration the e-mail will be sent with, when that
 * is known already (the one it names, or the tenant's only enabled one). Sending checks it again.
 */
export async function checkEmailFromAddress(scope: TenantScope, email: Record<string, unknown>, dataSource: DataSource): Promise<void> {
  let table = configTables.get(dataSource);
  if (!table) configTables.set(dataSource, (table = new LiveRecordTable(EmailConfig, 'emailConfigId', dataSource)));
  const { config } = await pickSenderConfig('e-mail', table, scope, (email.emailConfigId as string | null | undefined) ?? null);
  const refusal = config && fromAddressRefusal(config, email.fromAddress as string);
  if (refusal) throw AppException.validation(refusal);
}
