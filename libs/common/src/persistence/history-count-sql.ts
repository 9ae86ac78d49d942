import { QueryRunner } from 'typeorm';
import { catchUpCounts, CountedByTriggers } from './count-catch-up';
import { HISTORY_TABLE } from './history-sql';
import { Engine, MYSQL_COUNT_SLOT, quoted, RowName } from './live-count-sql';

/**
 * History entries per (tenant, table, action, slot) and per (tenant, writer, table, slot), kept by triggers on record_history
 * itself in the transaction that adds or removes an entry (a record's history trigger, retention): the sum of a
 * tenant's `entries` is its history's total, by table and action in the first, by writer and table in the second, so a history
 * page's total reads a few rows instead of counting the tenant's entries. Slots as the live counts' (live-count-sql.ts):
 * concurrent writers of one tenant add to different rows. The first also counts every entry added or removed
 * (`changes`, never lower): the sum of a tenant's is its history's version, which a counted total is reused at.
 */
export const HISTORY_COUNT_TABLE = 'history_count';
export const HISTORY_WRITER_COUNT_TABLE = 'history_writer_count';

/** Each count: its table and the entry's columns it is kept by (after tenant_id), with their lengths (record_history's). */
const COUNTS = [
  { table: HISTORY_COUNT_TABLE, keys: ['table_name', 'action'], lengths: [64, 8], versioned: true },
  { table: HISTORY_WRITER_COUNT_TABLE, keys: ['username', 'table_name'], lengths: [128, 64], versioned: false },
];

const SUFFIXES = { INSERT: 'hc_ins', DELETE: 'hc_del' } as const;

export function historyCountTriggerNames(): string[] {
  return Object.values(SUFFIXES).map((suffix) => `${HISTORY_TABLE}_${suffix}`);
}

/** One count's upsert of `amount` for the entry `row`. */
function upsert(engine: Engine, { table, keys, versioned }: (typeof COUNTS)[number], row: RowName, amount: number): string {
  const columns = ['tenant_id', ...keys];
  const values = [...columns.map((column) => `${row}.${quoted(engine, column)}`), engine === 'mysql' ? MYSQL_COUNT_SLOT : '0', amount];
  const counted = ['entries', ...(versioned ? ['changes'] : [])];
  const insert = `INSERT INTO ${table} (${[...columns, 'slot', ...counted].join(', ')}) VALUES (${[...values, ...(versioned ? [1] : [])].join(', ')})`;
  const changes = versioned ? ', changes = changes + 1' : '';
  return engine === 'mysql'
    ? `${insert} ON DUPLICATE KEY UPDATE entries = entries + (${amount})${changes};`
    : `${insert} ON CONFLICT (${[...columns, 'slot'].join(', ')}) DO UPDATE SET entries = entries + excluded.entries${changes};`;
}

/** The CREATE TRIGGER statements that keep record_history's entries counted: +1 per entry added, -1 per entry removed. */
export function historyCountTriggers(engine: Engine): string[] {
  const events = [
    ['INSERT', 'NEW', 1],
    ['DELETE', 'OLD', -1],
  ] as const;
  return events.map(([event, row, amount]) => {
    const body = COUNTS.map((count) => upsert(engine, count, row, amount)).join(' ');
    const name = `${HISTORY_TABLE}_${SUFFIXES[event]}`;
    return `CREATE TRIGGER ${quoted(engine, name)} AFTER ${event} ON ${quoted(engine, HISTORY_TABLE)} FOR EACH ROW BEGIN ${body} END`;
  });
}

/** SQLite: the statements that set the counts from record_history's entries, in the one writer's transaction. */
export function sqliteHistoryCountResetStatements(): string[] {
  return COUNTS.flatMap(({ table, keys, versioned }) => {
    const columns = ['tenant_id', ...keys].join(', ');
    const [counted, counts] = versioned ? ['entries, changes', 'COUNT(1), COUNT(1)'] : ['entries', 'COUNT(1)'];
    return [
      `DELETE FROM ${table}`,
      `INSERT INTO ${table} (${columns}, slot, ${counted}) SELECT ${columns}, 0, ${counts} FROM ${HISTORY_TABLE} GROUP BY ${columns}`,
    ];
  });
}

/** The MySQL/MariaDB tables of the counts (the entities HistoryCount and HistoryWriterCount). */
export const HISTORY_COUNT_TABLES_SQL = COUNTS.map(({ table, keys, lengths, versioned }) => {
  const keyColumns = keys.map((key, i) => `\`${key}\` varchar(${lengths[i]}) NOT NULL, `).join('');
  const primary = ['tenant_id', ...keys, 'slot'].map((column) => `\`${column}\``).join(', ');
  return (
    `CREATE TABLE \`${table}\` (\`tenant_id\` varchar(64) NOT NULL, ${keyColumns}\`slot\` int NOT NULL, \`entries\` bigint NOT NULL, ${versioned ? '`changes` bigint NOT NULL, ' : ''}` +
    `PRIMARY KEY (${primary})) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin`
  );
});

/** record_history's counts as catchUpCounts brings them up to its entries (every entry counts; `changes` rises). */
function historyCountsCaughtUp(): CountedByTriggers[] {
  return COUNTS.map(({ table, keys, versioned }) => ({
    counter: table,
    amount: 'entries',
    table: HISTORY_TABLE,
    fixed: [],
    key: ['tenant_id', ...keys].map((column) => ({ column, rows: column })),
    rowsCounted: '1 = 1',
    alsoOnUpdate: versioned ? { column: 'changes', value: '1', update: 'changes + 1' } : undefined,
  }));
}

/**
 * MySQL/MariaDB migration: record_history's entries counted from now on, starting from the entries it has: the
 * triggers first, then the counts brought up to the entries with no table locked (catchUpCounts), so an entry is
 * counted once while records are written.
 */
export async function createHistoryCountTriggers(queryRunner: QueryRunner): Promise<void> {
  for (const name of historyCountTriggerNames()) await queryRunner.query(`DROP TRIGGER IF EXISTS \`${name}\``);
  for (const sql of historyCountTriggers('mysql')) await queryRunner.query(sql);
  await catchUpCounts(queryRunner, historyCountsCaughtUp());
}

export async function dropHistoryCountTriggers(queryRunner: QueryRunner): Promise<void> {
  for (const name of historyCountTriggerNames()) await queryRunner.query(`DROP TRIGGER IF EXISTS \`${name}\``);
}
