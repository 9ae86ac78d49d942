/**
 * The 8 standard operations (count, getById, list, page, removeById, removeByIds, save, updateById),
 * the recycle bin (deletedPage, restoreById, purgeByIds), export and the history (historyPage) of every standard resource of one group, driven by its table (test/support/tables/*, rows typed by
 * test/support/resource-table.ts). One thin spec file per group calls describeStandardCrud, so the
 * groups run in parallel on Jest's workers. Per file: one app for the group (each resource has its
 * own table) plus one app with small bounds. Each concern is a file of this folder, registered in OPERATIONS.
 * Expected behaviour: docs/contract.md and docs/decisions.md.
 */
import { GROUPS } from '../tables';
import { startApp, TestApp } from '../test-app';
import { ResourceSpec } from '../resource-table';
import { client, ResourceClient } from './client';
import { contextOf, LIMITS, ResourceContext, STANDARD_ONLY } from './context';
import { describeRoundTrip } from './round-trip';
import { describeFilters } from './filters';
import { describePaging } from './paging';
import { describeDuplicates } from './duplicates';
import { describeTenantIsolation } from './tenant-isolation';
import { describeMassAssignment } from './mass-assignment';
import { describeRevisionAndDeletion } from './revision-and-deletion';
import { describeValidation } from './validation';
import { describeWriteOnly } from './write-only';
import { describeOpenApi } from './openapi';
import { describePermissions } from './permissions';
import { describeRecycleBin } from './recycle-bin';
import { describeExport } from './export';
import { describeHistory } from './history';

/** Every concern of the suite, in the order they run for each resource. */
export const OPERATIONS: ((x: ResourceContext) => void)[] = [
  describeRoundTrip,
  describeFilters,
  describePaging,
  describeDuplicates,
  describeTenantIsolation,
  describeMassAssignment,
  describeRevisionAndDeletion,
  describeRecycleBin,
  describeExport,
  describeHistory,
  describeValidation,
  describeWriteOnly,
  describeOpenApi,
  describePermissions,
];

/** What a group's spec file may add to its suite: clients of the app with small bounds. */
export interface StandardCrudSuite {
  limitedClient: (r: ResourceSpec) => ResourceClient;
}

/** Registers the standard-operation tests of the group named `groupName` (a name of GROUPS). */
export function describeStandardCrud(groupName: string): StandardCrudSuite {
  const group = GROUPS.find((g) => g.name === groupName);
  if (!group) throw new Error(`no group ${groupName} in test/support/tables`);

  /** One app with small bounds, shared by every resource of the group (each resource has its own table). */
  let limited: TestApp;
  beforeAll(async () => {
    limited = await startApp(LIMITS);
  });
  afterAll(async () => {
    await limited?.close();
  });

  describe(group.name, () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await startApp(STANDARD_ONLY);
    });
    afterAll(async () => {
      await t?.close();
    });

    describe.each(group.resources)('$segment', (r) => {
      it('has no invalid case that is only a null', () =>
        expect(r.invalid.filter((x) => Object.values(x.patch).includes(null))).toEqual([]));
      const x = contextOf(
        r,
        () => t,
        () => limited,
      );
      for (const operation of OPERATIONS) operation(x);
    });
  });

  return { limitedClient: (r) => client(() => limited, r) };
}
