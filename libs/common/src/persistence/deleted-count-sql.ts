import { QueryRunner } from 'typeorm';
import { LIVE } from './columns';
import { catchUpCounts, CountedByTriggers } from './count-catch-up';
import { Engine, isLive, moved, MYSQL_COUNT_SLOT, quoted, RowName } from './live-count-sql';

/**
 * Logically deleted rows per (record table, tenant, slot), kept by triggers of their own on each record table that has
 * a recycle bin, in the transaction of each write: the sum of a tenant's `deleted` is the records its recycle bin
 * holds, so the bin's unfiltered total reads a few rows, as the live total does (live-count-sql.ts). Separate
 * triggers, so the live counts' triggers and the migrations that made them stay as they are.
 */
export const DELETED_COUNT_TABLE = 'deleted_count';

const isDeleted = (row: RowName) => `${row}.delete_time <> ${LIVE}`;

/** One trigger: for each of its rows, whether that row counts and what it adds. */
interface DeletedTrigger {
  suffix: string;
  event: 'INSERT' | 'DELETE' | 'UPDATE';
  changes: { row: RowName; amount: string; when: string }[];
}

/** A row counts while deleted: inserted deleted (a copy), purged, deleted, restored, or moved between tenants. */
const TRIGGERS: DeletedTrigger[] = [
  { suffix: 'dc_ins', event: 'INSERT', changes: [{ row: 'NEW', amount: '1', when: isDeleted('NEW') }] },
  { suffix: 'dc_del', event: 'DELETE', changes: [{ row: 'OLD', amount: '-1', when: isDeleted('OLD') }] },
  {
    suffix: 'dc_upd',
    event: 'UPDATE',
    changes: [
      { row: 'OLD', amount: '-1', when: `(${moved} OR ${isLive('NEW')} <> ${isLive('OLD')}) AND ${isDeleted('OLD')}` },
      { row: 'NEW', amount: '1', when: `(${moved} OR ${isLive('NEW')} <> ${isLive('OLD')}) AND ${isDeleted('NEW')}` },
    ],
  },
];

const COLUMNS = `${DELETED_COUNT_TABLE} (table_name, tenant_id, slot, deleted)`;

export function deletedCountTriggerNames(table: string): string[] {
  return TRIGGERS.map((trigger) => `${table}_${trigger.suffix}`);
}

function statement(engine: Engine, table: string, { row, amount, when }: DeletedTrigger['changes'][number]): string {
  if (engine === 'sqlite')
    return (
      `INSERT INTO ${COLUMNS} SELECT '${table}', ${row}.tenant_id, 0, ${amount} WHERE ${when} ` +
      `ON CONFLICT (table_name, tenant_id, slot) DO UPDATE SET deleted = deleted + excluded.deleted;`
    );
  const slot = MYSQL_COUNT_SLOT;
  return (
    `IF ${when} THEN INSERT INTO ${COLUMNS} VALUES ('${table}', ${row}.tenant_id, ${slot}, ${amount}) ` +
    `ON DUPLICATE KEY UPDATE deleted = deleted + (${amount}); END IF;`
  );
}

/** The CREATE TRIGGER statements that keep `table`'s logically deleted rows counted in deleted_count. */
export function deletedCountTriggers(engine: Engine, table: string): string[] {
  return TRIGGERS.map(({ suffix, event, changes }) => {
    const body = changes.map((change) => statement(engine, table, change)).join(' ');
    return `CREATE TRIGGER ${quoted(engine, `${table}_${suffix}`)} AFTER ${event} ON ${quoted(engine, table)} FOR EACH ROW BEGIN ${body} END`;
  });
}

/** SQLite: the statements that set `table`'s deleted counts from its rows, in the one writer's transaction. */
export function sqliteDeletedCountResetStatements(table: string): string[] {
  return [
    `DELETE FROM ${DELETED_COUNT_TABLE} WHERE table_name = '${table}'`,
    `INSERT INTO ${COLUMNS} SELECT '${table}', tenant_id, 0, COUNT(1) FROM ${table} WHERE delete_time <> ${LIVE} GROUP BY tenant_id`,
  ];
}

/** `table`'s deleted count, as catchUpCounts brings it up to its rows. */
export function deletedCountCaughtUp(table: string): CountedByTriggers {
  return {
    counter: DELETED_COUNT_TABLE,
    amount: 'deleted',
    table,
    fixed: [{ column: 'table_name', value: `'${table}'` }],
    key: [{ column: 'tenant_id', rows: 'tenant_id' }],
    rowsCounted: `delete_time <> ${LIVE}`,
  };
}

/**
 * MySQL/MariaDB migrations: counts `table`'s logically deleted rows from now on, starting from the rows it has: the
 * triggers first, then the count brought up to the rows with no table locked (catchUpCounts), so a write is
 * counted once while writers go on. A resource with a recycle bin added later calls this in its own migration.
 */
export async function createDeletedCountTriggers(queryRunner: QueryRunner, table: string): Promise<void> {
  for (const name of deletedCountTriggerNames(table)) await queryRunner.query(`DROP TRIGGER IF EXISTS \`${name}\``);
  for (const sql of deletedCountTriggers('mysql', table)) await queryRunner.query(sql);
  await catchUpCounts(queryRunner, [deletedCountCaughtUp(table)]);
}

/** `table`'s deleted-count triggers and counts removed: its recycle bin's total is counted from then on. */
export async function dropDeletedCountTriggers(queryRunner: QueryRunner, table: string): Promise<void> {
  for (const name of deletedCountTriggerNames(table)) await queryRunner.query(`DROP TRIGGER IF EXISTS \`${name}\``);
  await queryRunner.query(`DELETE FROM ${DELETED_COUNT_TABLE} WHERE table_name = ?`, [table]);
}
