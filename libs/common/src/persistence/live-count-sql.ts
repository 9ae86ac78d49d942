import { QueryRunner } from 'typeorm';
import { LIVE } from './columns';

/** Live rows per (record table, tenant, slot), kept by triggers on each record table. */
export const LIVE_COUNT_TABLE = 'live_count';

/**
 * Rows a tenant's count is spread over on MySQL/MariaDB: a transaction adds to the slot of its connection, so
 * concurrent writers of one tenant mostly lock different rows, and one transaction never locks two slots of a table.
 * SQLite has one writer at a time: one slot.
 */
export const LIVE_COUNT_SLOTS = 8;

type Engine = 'mysql' | 'sqlite';

/** A change of the count: by `delta` for the `tenant` row's tenant, when `when` holds. */
interface Change {
  when: string;
  tenant: 'NEW' | 'OLD';
  delta: 1 | -1;
}

interface Trigger {
  suffix: string;
  event: 'INSERT' | 'DELETE' | 'UPDATE';
  changes: Change[];
}

const moved = 'NEW.tenant_id <> OLD.tenant_id';
/** A row counts while live: inserted live, deleted live, logically deleted or moved away, restored or moved in. */
const TRIGGERS: Trigger[] = [
  { suffix: 'lc_ins', event: 'INSERT', changes: [{ when: `NEW.delete_time = ${LIVE}`, tenant: 'NEW', delta: 1 }] },
  { suffix: 'lc_del', event: 'DELETE', changes: [{ when: `OLD.delete_time = ${LIVE}`, tenant: 'OLD', delta: -1 }] },
  {
    suffix: 'lc_upd',
    event: 'UPDATE',
    changes: [
      { when: `OLD.delete_time = ${LIVE} AND (NEW.delete_time <> ${LIVE} OR ${moved})`, tenant: 'OLD', delta: -1 },
      { when: `NEW.delete_time = ${LIVE} AND (OLD.delete_time <> ${LIVE} OR ${moved})`, tenant: 'NEW', delta: 1 },
    ],
  },
];

export function liveCountTriggerNames(table: string): string[] {
  return TRIGGERS.map((trigger) => `${table}_${trigger.suffix}`);
}

/** The CREATE TRIGGER statements that keep `table`'s live rows counted in live_count. */
export function liveCountTriggers(engine: Engine, table: string): string[] {
  const columns = `${LIVE_COUNT_TABLE} (table_name, tenant_id, slot, live)`;
  return TRIGGERS.map((trigger) => {
    const name = `${table}_${trigger.suffix}`;
    if (engine === 'mysql') {
      const body = trigger.changes.map(
        ({ when, tenant, delta }) =>
          `IF ${when} THEN INSERT INTO ${columns} VALUES ('${table}', ${tenant}.tenant_id, CONNECTION_ID() % ${LIVE_COUNT_SLOTS}, ${delta}) ` +
          `ON DUPLICATE KEY UPDATE live = live + ${delta}; END IF;`,
      );
      return `CREATE TRIGGER \`${name}\` AFTER ${trigger.event} ON \`${table}\` FOR EACH ROW BEGIN ${body.join(' ')} END`;
    }
    const body = trigger.changes.map(
      ({ when, tenant, delta }) =>
        `INSERT INTO ${columns} SELECT '${table}', ${tenant}.tenant_id, 0, ${delta} WHERE ${when} ` +
        `ON CONFLICT (table_name, tenant_id, slot) DO UPDATE SET live = live + ${delta};`,
    );
    // only a change of these columns can change the count: other updates skip the trigger
    const event = trigger.event === 'UPDATE' ? 'UPDATE OF delete_time, tenant_id' : trigger.event;
    return `CREATE TRIGGER "${name}" AFTER ${event} ON "${table}" FOR EACH ROW BEGIN ${body.join(' ')} END`;
  });
}

/**
 * The statements that set `table`'s counts from its rows. A write between them is counted once: its trigger's
 * addition is either deleted or overwritten by a count that includes the row.
 */
export function liveCountResetStatements(engine: Engine, table: string): string[] {
  const overwrite =
    engine === 'mysql'
      ? 'ON DUPLICATE KEY UPDATE live = VALUES(live)'
      : 'ON CONFLICT (table_name, tenant_id, slot) DO UPDATE SET live = excluded.live';
  return [
    `DELETE FROM ${LIVE_COUNT_TABLE} WHERE table_name = '${table}'`,
    `INSERT INTO ${LIVE_COUNT_TABLE} (table_name, tenant_id, slot, live) ` +
      `SELECT '${table}', tenant_id, 0, COUNT(1) FROM ${table} WHERE delete_time = ${LIVE} GROUP BY tenant_id ${overwrite}`,
  ];
}

/**
 * MySQL/MariaDB migrations: counts `table`'s live rows from now on, starting from the rows it has. The table is
 * locked for writes meanwhile, so a write is counted either by the triggers or by the initial count, never twice.
 * A resource added later calls this in its own migration.
 */
export async function createLiveCountTriggers(queryRunner: QueryRunner, table: string): Promise<void> {
  await queryRunner.query(`LOCK TABLES \`${table}\` WRITE, ${LIVE_COUNT_TABLE} WRITE`);
  try {
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
