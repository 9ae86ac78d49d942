/** Every group of standard resources: the one list the table-driven suites iterate (one line per group). */
import { ResourceGroup, ResourceSpec } from '../resource-table';
import { CONFIGURATION_GROUP } from './configuration';
import { MESSAGE_GROUP } from './message';
import { SNAPSHOT_GROUP } from './snapshot';

export const GROUPS: ResourceGroup[] = [CONFIGURATION_GROUP, MESSAGE_GROUP, SNAPSHOT_GROUP];

export const ALL_RESOURCES: ResourceSpec[] = GROUPS.flatMap((g) => g.resources);

export function resourceSpec(segment: string): ResourceSpec {
  const found = ALL_RESOURCES.find((r) => r.segment === segment);
  if (!found) throw new Error(`no standard resource ${segment}`);
  return found;
}
