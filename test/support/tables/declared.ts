/**
 * What a table row takes from its resource's declaration (defineResource in main-service) instead of restating it:
 * where the resource lives, its identifier, permission, business key and its 422 text, exact filters, main time
 * field, listCache and write-only fields. The rows keep what the contract says of behaviour (samples, invalid and
 * edge values, sorts, the contract's duplicate texts), which a wrong declaration then contradicts.
 */
import type { Resource } from '@app/common';
import { CONFIGURATION_RESOURCES } from '../../../apps/main-service/src/configuration/configuration.resources';
import { MESSAGE_RESOURCES } from '../../../apps/main-service/src/message/message.resources';
import { SNAPSHOT_RESOURCES } from '../../../apps/main-service/src/snapshot/snapshot.resources';
import { ResourceSpec } from '../resource-table';

const DECLARED: Resource[] = [...CONFIGURATION_RESOURCES, ...MESSAGE_RESOURCES, ...SNAPSHOT_RESOURCES].map((r) => r.resource as Resource);

export type DeclaredFacts = Pick<
  ResourceSpec,
  'prefix' | 'segment' | 'idField' | 'permission' | 'keyFields' | 'uniqueKeyText' | 'filterFields' | 'timeRange' | 'listCache' | 'writeOnly'
>;

/** The declared facts of main-service's resource at path `.../<segment>`. */
export function declared(segment: string): DeclaredFacts {
  const found = DECLARED.filter((r) => r.path.endsWith(`/${segment}`));
  if (found.length !== 1) throw new Error(`main-service declares ${found.length} resources at .../${segment}`);
  const [r] = found;
  return {
    prefix: `/main-service/${r.path.slice(0, -segment.length - 1)}`,
    segment,
    idField: r.idField,
    permission: r.permission,
    keyFields: r.uniqueKey ?? [],
    uniqueKeyText: r.uniqueKey ? r.duplicateMessage : null,
    filterFields: r.filters,
    timeRange: r.timeRange ? { field: r.timeRange } : undefined,
    listCache: r.listCache ?? false,
    writeOnly: r.writeOnly,
  };
}
