import { QueryRunner } from 'typeorm';
import { LIVE } from './columns';

/**
 * Live rows and writes per (record table, tenant, slot), kept by triggers on each record table in the transaction
 * of each write, whatever code writes: the sum of a tenant's `live` is its live records, the sum of its `writes`
 * a version that every committed insert, update and delete of its rows raises. Read inside a snapshot, the version
 * tells exactly which writes that snapshot holds: two snapshots with the same version hold the same rows.
 */
export const LIVE_COUNT_TABLE = 'live_count';

/**
 * Rows a tenant's count is spread over on MySQL/MariaDB: a transaction adds to the slot of its connection, so
 * concurrent writers of one tenant mostly lock different rows, and one transaction never locks two slots of a table.
 * SQLite has one writer at a time: one slot.
 */
export const LIVE_COUNT_SLOTS = 8;

type Engine = 'mysql' | 'sqlite';

/** What one trigger adds for the tenant of its `tenant` row: `live` (an SQL expression) and one write. */
interface Change {
  tenant: 'NEW' | 'OLD';
  live: string;
  /** Only when this holds (the trigger's other changes cover the rest); always when absent. */
  when?: string;
}

interface Trigger {
  suffix: string;
  event: 'INSERT' | 'DELETE' | 'UPDATE';
  changes: Change[];
}

const isLive = (row: 'NEW' | 'OLD') => `(CASE WHEN ${row}.delete_time = ${LIVE} THEN 1 ELSE 0 END)`;
const moved = 'NEW.tenant_id <> OLD.tenant_id';
/**
 * A row counts while live: inserted live, deleted live, logically deleted or moved away, restored or moved in.
 * Every row written counts as a write of its tenant (and of both tenants when it moves).
 */
const TRIGGERS: Trigger[] = [
  { suffix: 'lw_ins', event: 'INSERT', changes: [{ tenant: 'NEW', live: isLive('NEW') }] },
  { suffix: 'lw_del', event: 'DELETE', changes: [{ tenant: 'OLD', live: `-${isLive('OLD')}` }] },
  {
    suffix: 'lw_upd',
    event: 'UPDATE',
    changes: [
      { tenant: 'OLD', live: `(CASE WHEN ${moved} THEN 0 ELSE ${isLive('NEW')} END) - ${isLive('OLD')}` },
      { tenant: 'NEW', live: isLive('NEW'), when: moved },
    ],
  },
];

/** The names of the triggers that counted live rows only, before writes were counted too: replaced by TRIGGERS. */
const LIVE_ONLY_SUFFIXES = ['lc_ins', 'lc_del', 'lc_upd'];

export function liveCountTriggerNames(table: string): string[] {
  return TRIGGERS.map((trigger) => `${table}_${trigger.suffix}`);
}

/** Triggers of an earlier form that the current ones replace (dropped before these are created). */
export function replacedLiveCountTriggerNames(table: string): string[] {
  return LIVE_ONLY_SUFFIXES.map((suffix) => `${table}_${suffix}`);
}

/** The CREATE TRIGGER statements that keep `table`'s live rows and writes counted in live_count. */
export function liveCountTriggers(engine: Engine, table: string): string[] {
  const columns = `${LIVE_COUNT_TABLE} (table_name, tenant_id, slot, live, writes)`;
  return TRIGGERS.map((trigger) => {
    const name = `${table}_${trigger.suffix}`;
    if (engine === 'mysql') {
      const body = trigger.changes.map(({ tenant, live, when }) => {
        const upsert =
          `INSERT INTO ${columns} VALUES ('${table}', ${tenant}.tenant_id, CONNECTION_ID() % ${LIVE_COUNT_SLOTS}, ${live}, 1) ` +
          `ON DUPLICATE KEY UPDATE live = live + (${live}), writes = writes + 1;`;
        return when ? `IF ${when} THEN ${upsert} END IF;` : upsert;
      });
      return `CREATE TRIGGER \`${name}\` AFTER ${trigger.event} ON \`${table}\` FOR EACH ROW BEGIN ${body.join(' ')} END`;
    }
    const body = trigger.changes.map(
      ({ tenant, live, when }) =>
        `INSERT INTO ${columns} SELECT '${table}', ${tenant}.tenant_id, 0, ${live}, 1 WHERE ${when ?? '1'} ` +
        `ON CONFLICT (table_name, tenant_id, slot) DO UPDATE SET live = live + excluded.live, writes = writes + 1;`,
    );
    return `CREATE TRIGGER "${name}" AFTER ${trigger.event} ON "${table}" FOR EACH ROW BEGIN ${body.join(' ')} END`;
  });
}

/**
 * The statements that set `table`'s live counts from its rows. A write between them is counted once: its trigger's
 * addition is either zeroed or overwritten by a count that includes the row. The writes only ever go up (this
 * counts as one more write of every tenant), so a version read before never comes back for other rows.
 */
export function liveCountResetStatements(engine: Engine, table: string): string[] {
  const overwrite =
    engine === 'mysql'
      ? 'ON DUPLICATE KEY UPDATE live = VALUES(live)'
      : 'ON CONFLICT (table_name, tenant_id, slot) DO UPDATE SET live = excluded.live';
  return [
    `UPDATE ${LIVE_COUNT_TABLE} SET live = 0, writes = writes + 1 WHERE table_name = '${table}'`,
    `INSERT INTO ${LIVE_COUNT_TABLE} (table_name, tenant_id, slot, live, writes) ` +
      `SELECT '${table}', tenant_id, 0, COUNT(1), 1 FROM ${table} WHERE delete_time = ${LIVE} GROUP BY tenant_id ${overwrite}`,
  ];
}

/**
 * MySQL/MariaDB migrations: counts `table`'s live rows and writes from now on, starting from the rows it has (and
 * replacing triggers of an earlier form). The table is locked for writes meanwhile, so a write is counted either by
 * the triggers or by the initial count, never twice or not at all. A resource added later calls this in its own migration.
 */
export async function createLiveCountTriggers(queryRunner: QueryRunner, table: string): Promise<void> {
  await queryRunner.query(`LOCK TABLES \`${table}\` WRITE, ${LIVE_COUNT_TABLE} WRITE`);
  try {
    for (const name of [...replacedLiveCountTriggerNames(table), ...liveCountTriggerNames(table)])
      await queryRunner.query(`DROP TRIGGER IF EXISTS \`${name}\``);
    for (const sql of liveCountTriggers('mysql', table)) await queryRunner.query(sql);
    for (const sql of liveCountResetStatements('mysql', table)) await queryRunner.query(sql);
  } finally {
    await queryRunner.query('UNLOCK TABLES');
  }
}

export async function dropLiveCountTriggers(queryRunner: QueryRunner, table: string): Promise<void> {
  for (const name of liveCountTriggerNames(table)) await queryRunner.query(`DROP TRIGGER IF EXISTS \`${name}\``);
  await queryRunner.query(`DELETE FROM ${LIVE_COUNT_TABLE} WHERE table_name = ?`, [table]);
}
