import { LiveRecordTable, TenantFilter, TenantScope } from '@app/common';
import { EmailConfig } from '../email-config/email-config.entity';
import { SmsConfig } from '../sms-config/sms-config.entity';

/** The configuration a message goes out with, or why it has none. */
export type PickedConfig<T> = { config: T; problem?: undefined } | { config?: undefined; problem: string };

/**
 * How a message picks its sender configuration: the one it names (which must be enabled), else the
 * tenant's only enabled one. `secret`: the write-only column to read with it (for sending only).
 */
export async function pickSenderConfig<T extends EmailConfig | SmsConfig>(
  kind: string,
  table: LiveRecordTable<T>,
  scope: TenantScope,
  id: string | null,
  secret?: string,
): Promise<PickedConfig<T>> {
  const { idField } = table;
  const query = (filter: TenantFilter<T>) => {
    const select = table.select(scope, filter, 'c');
    return secret ? select.addSelect(`c.${secret}`) : select;
  };
  if (id) {
    const named = await query({ [idField]: id } as TenantFilter<T>).getOne();
    if (!named) return { problem: `${kind} configuration ${id} not found` };
    if (!named.enabled) return { problem: `${kind} configuration ${id} is disabled` };
    return { config: named };
  }
  const enabled = await query({ enabled: true } as TenantFilter<T>)
    .orderBy('c.createdTime', 'ASC')
    .limit(2)
    .getMany();
  if (!enabled.length) return { problem: `no enabled ${kind} configuration` };
  if (enabled.length > 1) return { problem: `several enabled ${kind} configurations: set ${idField}` };
  return { config: enabled[0] };
}
