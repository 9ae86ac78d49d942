import { QueryRunner } from 'typeorm';
import { LIVE } from './columns';
import { Engine, quoted } from './live-count-sql';
import { replacingTrigger, swapsTriggersInPlace } from './trigger-swap';

/**
 * Every change of a record, written by triggers of its table in the transaction of the write, whatever code writes
 * (the library's writers, retention, delivery): no change without its entry, no entry without its change. An entry
 * names the changed columns (`changed_fields`, a JSON array) and their old and new values (`changed_values`, a JSON
 * array of `[old, new]` in the same order, `null` for a secret column, whose values are never stored); a purge sets
 * `changed_values` of the record's entries to NULL in one statement and adds a PURGE entry.
 */
export const HISTORY_TABLE = 'record_history';

/** Columns that say who wrote and how a row is kept, not what it holds: never an entry's change. */
export const BOOKKEEPING_COLUMNS = [
  'tenant_id',
  'revision',
  'created_username',
  'created_time',
  'last_modified_username',
  'last_modified_time',
  'delete_time',
  'last_writer',
  'last_request_id',
  'last_trace_id',
];

/** What the triggers of one table need to know of it. */
export interface HistoryTableShape {
  table: string;
  /** The identifier column (the primary key besides tenant_id). */
  idColumn: string;
  /** Every other column the record holds (bookkeeping columns are left out here). */
  columns: string[];
  /** Of those, the ones whose values are secrets: an entry names them, masked, never with a value. */
  secretColumns: string[];
}

type RowName = 'NEW' | 'OLD';

const SUFFIXES = { INSERT: 'rh_ins', UPDATE: 'rh_upd', DELETE: 'rh_del' } as const;

export function historyTriggerNames(table: string): string[] {
  return Object.values(SUFFIXES).map((suffix) => `${table}_${suffix}`);
}

const ENTRY_COLUMNS =
  `${HISTORY_TABLE} (tenant_id, table_name, record_id, revision, action, username, time, request_id, trace_id, ` +
  `changed_fields, changed_values)`;

/** Concatenation of text parts: CONCAT on MySQL (NULL-free parts), || on SQLite. */
const concat = (engine: Engine, parts: string[]) =>
  parts.length === 0 ? `''` : engine === 'mysql' ? `CONCAT(${parts.join(', ')})` : `(${parts.join(' || ')})`;

/** A JSON array of the parts, each starting with a comma or empty: the leading comma dropped. */
const jsonList = (engine: Engine, parts: string[]) => concat(engine, [`'['`, `SUBSTR(${concat(engine, parts)}, 2)`, `']'`]);

const jsonArray = (engine: Engine, items: string[]) => `${engine === 'mysql' ? 'JSON_ARRAY' : 'json_array'}(${items.join(', ')})`;

/** Whether the column differs between OLD and NEW (NULL-safe). */
const differs = (engine: Engine, column: string) => {
  const [now, was] = [`NEW.${quoted(engine, column)}`, `OLD.${quoted(engine, column)}`];
  return engine === 'mysql' ? `NOT (${now} <=> ${was})` : `${now} IS NOT ${was}`;
};

/** The milliseconds of the moment the statement runs (a purge's row keeps no time of its own). */
const nowMillis = (engine: Engine) =>
  engine === 'mysql'
    ? 'CAST(ROUND(UNIX_TIMESTAMP(NOW(3)) * 1000) AS SIGNED)'
    : "CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)";

/** An entry's changed fields and values: for each column, its parts when `changed(column)`. */
function changes(engine: Engine, shape: HistoryTableShape, changed: (column: string) => string, old: (column: string) => string) {
  const when = (column: string, then: string) => `CASE WHEN ${changed(column)} THEN ${then} ELSE '' END`;
  const fields = shape.columns.map((column) => when(column, `'${`,"${column}"`}'`));
  const values = shape.columns.map((column) =>
    shape.secretColumns.includes(column)
      ? when(column, `',null'`)
      : when(column, concat(engine, [`','`, jsonArray(engine, [old(column), `NEW.${quoted(engine, column)}`])])),
  );
  return { fields: jsonList(engine, fields), values: jsonList(engine, values) };
}

/** The VALUES of one entry of the row `row` (NEW, or OLD for a purge). */
function entry(engine: Engine, shape: HistoryTableShape, row: RowName, action: string, time: string, fields: string, values: string) {
  const r = (column: string) => `${row}.${quoted(engine, column)}`;
  return [
    r('tenant_id'),
    `'${shape.table}'`,
    r(shape.idColumn),
    r('revision'),
    action,
    `COALESCE(${r('last_writer')}, ${r('last_modified_username')})`,
    time,
    r('last_request_id'),
    r('last_trace_id'),
    fields,
    values,
  ].join(', ');
}

/** One INSERT of an entry, written when `when` holds. */
function insertEntry(engine: Engine, values: string, when?: string): string {
  if (engine === 'sqlite') return `INSERT INTO ${ENTRY_COLUMNS} SELECT ${values}${when ? ` WHERE ${when}` : ''};`;
  const insert = `INSERT INTO ${ENTRY_COLUMNS} VALUES (${values});`;
  return when ? `IF ${when} THEN ${insert} END IF;` : insert;
}

/**
 * The CREATE TRIGGER statements that write `shape.table`'s history: CREATE with every field given (not NULL); an
 * update that moves deleteTime from live to deleted DELETE, back RESTORE, else UPDATE with the changed columns only
 * (an update that changes none of them writes nothing); a physical delete (purge, retention) blanks the record's
 * entries' values and writes PURGE.
 */
export function historyTriggers(engine: Engine, shape: HistoryTableShape): string[] {
  const q = (column: string) => quoted(engine, column);
  const create = changes(
    engine,
    shape,
    (column) => `NEW.${q(column)} IS NOT NULL`,
    () => 'NULL',
  );
  const update = changes(
    engine,
    shape,
    (column) => differs(engine, column),
    (column) => `OLD.${q(column)}`,
  );
  const [wasLive, isLive] = [`OLD.delete_time = ${LIVE}`, `NEW.delete_time = ${LIVE}`];
  const updateAction = `CASE WHEN ${wasLive} AND NOT ${isLive} THEN 'DELETE' WHEN ${isLive} AND NOT ${wasLive} THEN 'RESTORE' ELSE 'UPDATE' END`;
  const anyChange = [`(${wasLive}) <> (${isLive})`, ...shape.columns.map((column) => differs(engine, column))].join(' OR ');
  const blank =
    `UPDATE ${HISTORY_TABLE} SET changed_values = NULL WHERE tenant_id = OLD.tenant_id AND table_name = '${shape.table}' ` +
    `AND record_id = OLD.${q(shape.idColumn)};`;
  const bodies: Record<keyof typeof SUFFIXES, string> = {
    INSERT: insertEntry(engine, entry(engine, shape, 'NEW', `'CREATE'`, 'NEW.last_modified_time', create.fields, create.values)),
    UPDATE: insertEntry(
      engine,
      entry(engine, shape, 'NEW', updateAction, 'NEW.last_modified_time', update.fields, update.values),
      anyChange,
    ),
    DELETE: `${blank} ${insertEntry(engine, entry(engine, shape, 'OLD', `'PURGE'`, nowMillis(engine), `'[]'`, 'NULL'))}`,
  };
  return (Object.keys(SUFFIXES) as (keyof typeof SUFFIXES)[]).map(
    (event) =>
      `CREATE TRIGGER ${quoted(engine, `${shape.table}_${SUFFIXES[event]}`)} AFTER ${event} ON ${quoted(engine, shape.table)} ` +
      `FOR EACH ROW BEGIN ${bodies[event]} END`,
  );
}

/**
 * A MySQL/MariaDB record table's shape as the database has it now (a migration reads no resource declaration,
 * which changes): its identifier and columns; the secret columns are the migration's to name.
 */
export async function historyTableShape(queryRunner: QueryRunner, table: string, secretColumns: string[] = []): Promise<HistoryTableShape> {
  const rows = (await queryRunner.query(
    `SELECT COLUMN_NAME AS name, COLUMN_KEY AS columnKey FROM information_schema.COLUMNS ` +
      `WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = ? ORDER BY ORDINAL_POSITION`,
    [table],
  )) as { name: string; columnKey: string }[];
  const idColumn = rows.find((row) => row.columnKey === 'PRI' && row.name !== 'tenant_id')?.name;
  if (!idColumn) throw new Error(`${table} has no identifier column besides tenant_id`);
  const columns = rows.map((row) => row.name).filter((name) => name !== idColumn && !BOOKKEEPING_COLUMNS.includes(name));
  return { table, idColumn, columns, secretColumns };
}

/**
 * MySQL/MariaDB migrations: `table`'s changes recorded from now on, by triggers made from its columns as they are
 * (a later migration that adds a column calls this again, so the new column is recorded too). On MariaDB each trigger
 * is swapped in one statement (CREATE OR REPLACE TRIGGER), so a write running meanwhile is recorded by the old trigger
 * or the new one, never by none; MySQL has no such statement, and there the old ones are dropped first.
 */
export async function createHistoryTriggers(queryRunner: QueryRunner, table: string, secretColumns: string[] = []): Promise<void> {
  const shape = await historyTableShape(queryRunner, table, secretColumns);
  const inPlace = await swapsTriggersInPlace(queryRunner);
  if (!inPlace) for (const name of historyTriggerNames(table)) await queryRunner.query(`DROP TRIGGER IF EXISTS \`${name}\``);
  for (const sql of historyTriggers('mysql', shape)) await queryRunner.query(inPlace ? replacingTrigger(sql) : sql);
}

/** `table`'s changes no longer recorded (its entries stay). */
export async function dropHistoryTriggers(queryRunner: QueryRunner, table: string): Promise<void> {
  for (const name of historyTriggerNames(table)) await queryRunner.query(`DROP TRIGGER IF EXISTS \`${name}\``);
}

/** The columns a write stamps for its history entry (history/write-stamp.ts), as BaseRecord declares them. */
const WRITE_STAMP_COLUMNS = '`last_writer` varchar(128) NULL, ADD `last_request_id` varchar(64) NULL, ADD `last_trace_id` varchar(32) NULL';

/** MySQL/MariaDB migrations: a record table gets the write-stamp columns (every record table has them, with or without history). */
export async function addWriteStampColumns(queryRunner: QueryRunner, table: string): Promise<void> {
  await queryRunner.query(`ALTER TABLE \`${table}\` ADD ${WRITE_STAMP_COLUMNS}`);
}

export async function dropWriteStampColumns(queryRunner: QueryRunner, table: string): Promise<void> {
  await queryRunner.query(
    `ALTER TABLE \`${table}\` DROP COLUMN \`last_writer\`, DROP COLUMN \`last_request_id\`, DROP COLUMN \`last_trace_id\``,
  );
}
