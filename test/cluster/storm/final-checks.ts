/**
 * The checks once the storm is over: the asynchronous imports applied, every journaled key as the API lists
 * it, and every kept live count equal to its rows in MariaDB (read directly, not through the API under test).
 */
import { DataSource } from 'typeorm';
import { LIVE } from '../../../libs/common/src/persistence/columns';
import { LIVE_COUNT_TABLE } from '../../../libs/common/src/persistence/live-count-sql';
import { recordTables } from '../../../libs/common/src/persistence/record-tables';
import { Storm } from './account';
import { DD, keyOf, Row } from './resources';

/** How long the asynchronous imports may take to be applied once the storm is over. */
const APPLY_WAIT_MS = 60_000;

/** Every import batch APPLIED with all its rows. */
export async function awaitBatches(s: Storm): Promise<void> {
  const deadline = Date.now() + APPLY_WAIT_MS;
  for (const { tenant, batchId, count } of s.batches) {
    for (;;) {
      const answer = await s.send(s.c.gateway, DD, `importStatus?batchId=${batchId}`, tenant);
      const batch = answer.data as { status?: string; appliedCount?: number } | null;
      if (batch?.status === 'APPLIED') {
        s.check(batch.appliedCount === count, () => `batch ${batchId}: ${JSON.stringify(batch)}`);
        break;
      }
      if ((batch?.status && batch.status !== 'PENDING') || Date.now() > deadline) {
        s.problem(`batch ${batchId} of ${tenant} not applied: ${JSON.stringify(answer)}`);
        break;
      }
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}

/** Each journaled tenant and resource as the API lists it: each key once, as journaled, and no other row. */
export async function checkJournal(s: Storm): Promise<void> {
  const scopes = [...s.journal.values()];
  const next = { at: 0 };
  const worker = async (w: number) => {
    for (let at = next.at++; at < scopes.length; at = next.at++) {
      const { tenant, r, keys } = scopes[at];
      const answer = await s.send(s.c.main[w % 2], r, 'list', tenant, { body: { sqlQueryLimit: 10_000 } });
      if (!s.ok(answer, `final list of ${r.path} in ${tenant}`)) continue;
      const found = new Map<string, Row[]>();
      for (const row of answer.data as Row[]) found.set(keyOf(r, row), [...(found.get(keyOf(r, row)) ?? []), row]);
      const groups = new Map<string, Set<number>>();
      for (const [key, expected] of keys) {
        const rows = found.get(key) ?? [];
        found.delete(key);
        const where = `${r.path} ${key} in ${tenant}`;
        if (!expected.present) {
          s.check(rows.length === 0, () => `${where}: removed, yet ${rows.length} live`);
          continue;
        }
        if (rows.length !== 1) {
          s.problem(`${where}: acknowledged, ${rows.length} live`);
          continue;
        }
        const [row] = rows;
        const choice = expected.names.indexOf(String(row.name));
        s.check(
          choice >= 0 &&
            (expected.id === undefined || row[r.idField] === expected.id) &&
            (expected.revision === undefined || row.revision === expected.revision),
          () =>
            `${where}: ${JSON.stringify({ name: row.name, id: row[r.idField], revision: row.revision })}, expected ${JSON.stringify(expected)}`,
        );
        if (expected.group) groups.set(expected.group, (groups.get(expected.group) ?? new Set()).add(choice));
      }
      for (const [group, choices] of groups) s.check(choices.size === 1, () => `${group}: keys of one import hold values of both calls`);
      for (const key of found.keys()) s.problem(`${r.path} ${key} in ${tenant}: live, never acknowledged`);
    }
  };
  await Promise.all([0, 1, 2, 3].map(worker));
}

/**
 * For every record table and tenant, the kept live count minus the live rows' COUNT(*), where not 0; all read in
 * one snapshot. Every record table of main-service's database is counted (its migrations give each the triggers).
 * `pairs`: how many tables and tenants were compared.
 */
export async function liveCountMismatches(database: string): Promise<{ pairs: number; mismatches: string[] }> {
  const dataSource = await new DataSource({ type: 'mysql', url: database }).initialize();
  const runner = dataSource.createQueryRunner();
  try {
    const difference = new Map<string, number>();
    const add = (table: string, tenant: string, live: number) =>
      difference.set(`${table} ${tenant}`, (difference.get(`${table} ${tenant}`) ?? 0) + live);
    const tables = await recordTables(runner);
    expect(tables).toEqual(expect.arrayContaining(['configuration_data_dictionary', 'configuration_data_dictionary_table']));
    await runner.query('START TRANSACTION WITH CONSISTENT SNAPSHOT, READ ONLY');
    const kept = await runner.query(
      `SELECT table_name AS tbl, tenant_id AS tenant, SUM(live) AS live FROM ${LIVE_COUNT_TABLE} GROUP BY 1, 2`,
    );
    for (const row of kept as { tbl: string; tenant: string; live: string }[]) add(row.tbl, row.tenant, Number(row.live));
    for (const table of tables) {
      const rows = await runner.query(`SELECT tenant_id AS tenant, COUNT(*) AS live FROM \`${table}\` WHERE delete_time = ? GROUP BY 1`, [
        LIVE,
      ]);
      for (const row of rows as { tenant: string; live: string }[]) add(table, row.tenant, -Number(row.live));
    }
    await runner.query('COMMIT');
    const mismatches = [...difference].filter(([, d]) => d !== 0).map(([scope, d]) => `${scope}: live_count - COUNT(*) = ${d}`);
    return { pairs: difference.size, mismatches };
  } finally {
    await runner.release();
    await dataSource.destroy();
  }
}
