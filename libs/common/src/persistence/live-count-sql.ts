import { QueryRunner } from 'typeorm';
import { LIVE } from './columns';
import { catchUpCounts, CountedByTriggers } from './count-catch-up';

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

/**
 * Servers whose writers never share a slot row: on a MariaDB Galera cluster each node writes its own rows (its
 * server_id picks a block of LIVE_COUNT_SLOTS slots), so writers on two nodes never update the same counter row
 * and lose certification against each other for it (they would on `CONNECTION_ID() % 8` alone: connection ids
 * are per node). Nodes whose server_id differ modulo this never meet; a single server writes 8 slots as before.
 */
export const LIVE_COUNT_NODE_BLOCKS = 64;

/** The slot a MySQL/MariaDB trigger adds to: its connection's, within its server's block (reads sum all slots). */
export const MYSQL_COUNT_SLOT = `CONNECTION_ID() % ${LIVE_COUNT_SLOTS} + ${LIVE_COUNT_SLOTS} * (@@server_id % ${LIVE_COUNT_NODE_BLOCKS})`;

/**
 * Live rows per (record table, tenant, filter column, value, slot), kept by the same triggers in the same
 * transactions: the sum of a value's `live` is the tenant's live records with that value in that column (NULL
 * is not counted), so a page or count filtered by that one column reads a few rows instead of the matches.
 * Values are stored as text in a binary collation (the record tables' own), so they match as the filter does.
 */
export const FILTER_COUNT_TABLE = 'filter_count';

export type Engine = 'mysql' | 'sqlite';
export type RowName = 'NEW' | 'OLD';

/** What one trigger adds to one count for the tenant of its `row`: `amount` (an SQL expression). */
interface Change {
  row: RowName;
  amount: string;
  /** Only when this holds; always when absent. */
  when?: string;
}

/** A trigger's additions: to the live and write counts, and to each counted filter column's count of a value. */
interface Trigger {
  suffix: string;
  event: 'INSERT' | 'DELETE' | 'UPDATE';
  live: Change[];
  filter: (engine: Engine, column: string) => Change[];
}

export const isLive = (row: RowName) => `(CASE WHEN ${row}.delete_time = ${LIVE} THEN 1 ELSE 0 END)`;
export const moved = 'NEW.tenant_id <> OLD.tenant_id';
export const quoted = (engine: Engine, name: string) => (engine === 'mysql' ? `\`${name}\`` : `"${name}"`);
/** The row is live and has a value in `column`: it counts for that value. */
const countsFor = (engine: Engine, row: RowName, column: string) =>
  `${row}.delete_time = ${LIVE} AND ${row}.${quoted(engine, column)} IS NOT NULL`;
/** An update that moves the row out of its value's count and into another (tenant, liveness or value changed). */
const recounted = (engine: Engine, column: string) => {
  const [now, was] = [`NEW.${quoted(engine, column)}`, `OLD.${quoted(engine, column)}`];
  const valueChanged = engine === 'mysql' ? `NOT (${now} <=> ${was})` : `${now} IS NOT ${was}`;
  return `(${moved} OR ${isLive('NEW')} <> ${isLive('OLD')} OR ${valueChanged})`;
};

/**
 * A row counts while live: inserted live, deleted live, logically deleted or moved away, restored or moved in;
 * likewise for its value of each counted filter column, which an update may also change. Every row written
 * counts as a write of its tenant (and of both tenants when it moves).
 */
const TRIGGERS: Trigger[] = [
  {
    suffix: 'lf_ins',
    event: 'INSERT',
    live: [{ row: 'NEW', amount: isLive('NEW') }],
    filter: (engine, column) => [{ row: 'NEW', amount: '1', when: countsFor(engine, 'NEW', column) }],
  },
  {
    suffix: 'lf_del',
    event: 'DELETE',
    live: [{ row: 'OLD', amount: `-${isLive('OLD')}` }],
    filter: (engine, column) => [{ row: 'OLD', amount: '-1', when: countsFor(engine, 'OLD', column) }],
  },
  {
    suffix: 'lf_upd',
    event: 'UPDATE',
    live: [
      { row: 'OLD', amount: `(CASE WHEN ${moved} THEN 0 ELSE ${isLive('NEW')} END) - ${isLive('OLD')}` },
      { row: 'NEW', amount: isLive('NEW'), when: moved },
    ],
    filter: (engine, column) => [
      { row: 'OLD', amount: '-1', when: `${recounted(engine, column)} AND ${countsFor(engine, 'OLD', column)}` },
      { row: 'NEW', amount: '1', when: `${recounted(engine, column)} AND ${countsFor(engine, 'NEW', column)}` },
    ],
  },
];

/** The names of earlier forms of the triggers: live rows only, then live rows and writes without filter counts. */
const REPLACED_SUFFIXES = ['lc_ins', 'lc_del', 'lc_upd', 'lw_ins', 'lw_del', 'lw_upd'];

export function liveCountTriggerNames(table: string): string[] {
  return TRIGGERS.map((trigger) => `${table}_${trigger.suffix}`);
}

/** Triggers of an earlier form that the current ones replace (dropped before these are created). */
export function replacedLiveCountTriggerNames(table: string): string[] {
  return REPLACED_SUFFIXES.map((suffix) => `${table}_${suffix}`);
}

/** The name of the INSERT trigger, whose text tells which filter columns the table's triggers count. */
export function insertTriggerName(table: string): string {
  return `${table}_${TRIGGERS[0].suffix}`;
}

const LIVE_COLUMNS = `${LIVE_COUNT_TABLE} (table_name, tenant_id, slot, live, writes)`;
const FILTER_COLUMNS = `${FILTER_COUNT_TABLE} (table_name, tenant_id, field, value, slot, live)`;
const FILTER_KEY = 'table_name, tenant_id, field, value, slot';

function mysqlStatement(table: string, column: string | undefined, { row, amount, when }: Change): string {
  const slot = MYSQL_COUNT_SLOT;
  const upsert =
    column === undefined
      ? `INSERT INTO ${LIVE_COLUMNS} VALUES ('${table}', ${row}.tenant_id, ${slot}, ${amount}, 1) ` +
        `ON DUPLICATE KEY UPDATE live = live + (${amount}), writes = writes + 1;`
      : `INSERT INTO ${FILTER_COLUMNS} VALUES ('${table}', ${row}.tenant_id, '${column}', ${row}.\`${column}\`, ${slot}, ${amount}) ` +
        `ON DUPLICATE KEY UPDATE live = live + (${amount});`;
  return when ? `IF ${when} THEN ${upsert} END IF;` : upsert;
}

function sqliteStatement(table: string, column: string | undefined, { row, amount, when }: Change): string {
  return column === undefined
    ? `INSERT INTO ${LIVE_COLUMNS} SELECT '${table}', ${row}.tenant_id, 0, ${amount}, 1 WHERE ${when ?? '1'} ` +
        `ON CONFLICT (table_name, tenant_id, slot) DO UPDATE SET live = live + excluded.live, writes = writes + 1;`
    : `INSERT INTO ${FILTER_COLUMNS} SELECT '${table}', ${row}.tenant_id, '${column}', ${row}."${column}", 0, ${amount} WHERE ${when ?? '1'} ` +
        `ON CONFLICT (${FILTER_KEY}) DO UPDATE SET live = live + excluded.live;`;
}

/**
 * The CREATE TRIGGER statements that keep `table`'s live rows and writes counted in live_count, and its live rows
 * per value of each of `filterColumns` in filter_count. The columns are written into the triggers' text, which is
 * where a reader learns them (filterColumnsCountedBy).
 */
export function liveCountTriggers(engine: Engine, table: string, filterColumns: string[] = []): string[] {
  const statement = engine === 'mysql' ? mysqlStatement : sqliteStatement;
  return TRIGGERS.map((trigger) => {
    const name = `${table}_${trigger.suffix}`;
    const body = [
      ...trigger.live.map((change) => statement(table, undefined, change)),
      ...filterColumns.flatMap((column) => trigger.filter(engine, column).map((change) => statement(table, column, change))),
    ];
    return `CREATE TRIGGER ${quoted(engine, name)} AFTER ${trigger.event} ON ${quoted(engine, table)} FOR EACH ROW BEGIN ${body.join(' ')} END`;
  });
}

/** The filter columns whose counts an INSERT trigger's text (liveCountTriggers, either engine) keeps. */
export function filterColumnsCountedBy(insertTriggerSql: string): string[] {
  return [...insertTriggerSql.matchAll(/, NEW\.tenant_id, '([^']+)', NEW\./g)].map((match) => match[1]);
}

/**
 * SQLite: the statements that set `table`'s live counts from its rows, in the one writer's transaction. The writes
 * only ever go up (this counts as one more write of every tenant), so a version read before never comes back for
 * other rows.
 */
export function sqliteLiveCountResetStatements(table: string): string[] {
  return [
    `UPDATE ${LIVE_COUNT_TABLE} SET live = 0, writes = writes + 1 WHERE table_name = '${table}'`,
    `INSERT INTO ${LIVE_COUNT_TABLE} (table_name, tenant_id, slot, live, writes) ` +
      `SELECT '${table}', tenant_id, 0, COUNT(1), 1 FROM ${table} WHERE delete_time = ${LIVE} GROUP BY tenant_id ` +
      'ON CONFLICT (table_name, tenant_id, slot) DO UPDATE SET live = excluded.live',
  ];
}

/** SQLite: the statements that set `table`'s counts of each of `filterColumns`' values from its rows, likewise. */
export function sqliteFilterCountResetStatements(table: string, filterColumns: string[]): string[] {
  return [
    `DELETE FROM ${FILTER_COUNT_TABLE} WHERE table_name = '${table}'`,
    ...filterColumns.map(
      (column) =>
        `INSERT INTO ${FILTER_COLUMNS} SELECT '${table}', tenant_id, '${column}', "${column}", 0, COUNT(1) FROM ${table} ` +
        `WHERE delete_time = ${LIVE} AND "${column}" IS NOT NULL GROUP BY tenant_id, "${column}" ` +
        `ON CONFLICT (${FILTER_KEY}) DO UPDATE SET live = live + excluded.live`,
    ),
  ];
}

/** `table`'s live counts, and its counts of each of `filterColumns`' values, as catchUpCounts brings them up to its rows. */
export function liveCountsCaughtUp(table: string, filterColumns: string[] = []): CountedByTriggers[] {
  const tenant = { column: 'tenant_id', rows: 'tenant_id' };
  const named = { column: 'table_name', value: `'${table}'` };
  return [
    {
      counter: LIVE_COUNT_TABLE,
      amount: 'live',
      table,
      fixed: [named],
      key: [tenant],
      rowsCounted: `delete_time = ${LIVE}`,
      alsoOnUpdate: { column: 'writes', value: '1', update: 'writes + 1' },
    },
    ...filterColumns.map((column) => ({
      counter: FILTER_COUNT_TABLE,
      amount: 'live',
      table,
      fixed: [named, { column: 'field', value: `'${column}'` }],
      key: [tenant, { column: 'value', rows: `\`${column}\`` }],
      rowsCounted: `delete_time = ${LIVE} AND \`${column}\` IS NOT NULL`,
    })),
  ];
}

/**
 * MySQL/MariaDB migrations: counts `table`'s live rows and writes from now on, and its live rows per value of each
 * of `filterColumns` (written out in the migration: a migration never reads the resource declarations, which
 * change), starting from the rows it has (and replacing triggers of an earlier form). No table is locked: the
 * triggers are made first, then each count is brought up to the rows in one statement (catchUpCounts), so a write
 * is counted once while writers go on, also through other nodes of a cluster. A resource added later calls this in
 * its own migration.
 */
export async function createLiveCountTriggers(queryRunner: QueryRunner, table: string, filterColumns: string[] = []): Promise<void> {
  for (const name of [...replacedLiveCountTriggerNames(table), ...liveCountTriggerNames(table)])
    await queryRunner.query(`DROP TRIGGER IF EXISTS \`${name}\``);
  for (const sql of liveCountTriggers('mysql', table, filterColumns)) await queryRunner.query(sql);
  await catchUpCounts(queryRunner, liveCountsCaughtUp(table, filterColumns));
}

/** Every form's triggers of `table` dropped and its live counts removed: its rows are counted from then on. */
export async function dropLiveCountTriggers(queryRunner: QueryRunner, table: string): Promise<void> {
  for (const name of [...replacedLiveCountTriggerNames(table), ...liveCountTriggerNames(table)])
    await queryRunner.query(`DROP TRIGGER IF EXISTS \`${name}\``);
  await queryRunner.query(`DELETE FROM ${LIVE_COUNT_TABLE} WHERE table_name = ?`, [table]);
}
