// Rows of the scale benchmark, written by SQL (INSERT ... SELECT over a number sequence), in chunks. A tenant's
// first chunk goes through the live-count triggers, which time the insert cost of the counts; its further rows go
// in with the table's triggers dropped (an upsert per row and counted column would take hours at 10 million rows),
// and the counts the triggers keep (live rows, writes, live rows per value of each counted filter) are then added
// by GROUP BY, as the triggers would have added them, and checked against the rows.
// Each filter value below selects 5% of a tenant's rows; sort values repeat (ties broken by the identifier).
import { addCounts, countedColumns, verifyCounts, withoutTriggers } from './lib/seed-counters.mjs';

const BASE_TIME = 1_760_000_000_000;
const CHUNK = 100_000;
const PROGRESS = 1_000_000;

/** The share of a tenant's rows each filter value below selects. */
export const FILTER_SHARE = 0.05;

/** Logically deleted rows per tenant beside its live ones (its recycle bin), as a share of the live rows. */
export const DELETED_SHARE = 0.1;

/** How many logically deleted rows a tenant of `rows` live rows has; they are rows rows + 1 to rows + deletedRows(rows). */
export const deletedRows = (rows) => Math.round(rows * DELETED_SHARE);

/** The two tables, their resources, and for each declared filter a value that selects ~5% of the rows. */
export const TABLES = [
  {
    name: 'data-dictionary-table',
    path: '/main-service/system-api/configuration/data-dictionary-table',
    table: 'configuration_data_dictionary_table',
    key: 'data_dictionary_table_id',
    columns:
      'tenant_id, revision, created_username, created_time, last_modified_username, last_modified_time, delete_time, name, sort, ' +
      'data_dictionary_table_id, data_dictionary_type_code, data_dictionary_code, `row`, `key`, value',
    values: (tenant, deleteTime) =>
      `'${tenant}', 1, 'bench', ${BASE_TIME} + n, 'bench', ${BASE_TIME} + n, ${deleteTime}, CONCAT('name ', n), n % 1000, ` +
      `CONCAT('s', LPAD(n, 20, '0')), CONCAT('T', n % 20), CONCAT('C', FLOOR(n / 20) % 20), CONCAT('R', FLOOR(n / 400) % 20), CONCAT('k', n), 'v'`,
    filters: () => ({ dataDictionaryTypeCode: 'T7', dataDictionaryCode: 'C3', row: 'R5' }),
    sortable: ['dataDictionaryTypeCode', 'dataDictionaryCode', 'row', 'sort', 'createdTime', 'lastModifiedTime'],
    // [filter, sort, whether the filter's index holds the order]
    sortedFilters: [
      ['dataDictionaryTypeCode', 'sort', true],
      ['dataDictionaryTypeCode', 'dataDictionaryCode', false],
    ],
  },
  {
    name: 'device-state-snap',
    path: '/main-service/main-api/snapshot/device-state-snap',
    table: 'snapshot_device_state_snap',
    key: 'device_state_snap_id',
    columns:
      'tenant_id, revision, created_username, created_time, last_modified_username, last_modified_time, delete_time, snap_time, ' +
      'device_state_snap_id, device_no, device_type, state, battery_level, signal_strength',
    values: (tenant, deleteTime) =>
      `'${tenant}', 1, 'bench', ${BASE_TIME} + n, 'bench', ${BASE_TIME} + n, ${deleteTime}, ${BASE_TIME} + n * 1000, ` +
      `CONCAT('s', LPAD(n, 20, '0')), CONCAT('DAD-', LPAD(n % 20, 4, '0')), ` +
      `IF(FLOOR(n / 20) % 20 = 0, 'NFC_READER', 'DATA_ACQUISITION_DEVICE'), IF(FLOOR(n / 400) % 20 = 0, 'FAULT', 'ONLINE'), n % 101, (n * 7) % 101`,
    // the time range: 5% of the tenant's snapshot times, in the middle
    filters: (rows) => ({
      deviceNo: 'DAD-0007',
      deviceType: 'NFC_READER',
      state: 'FAULT',
      snapTime: { snapTimeStart: BASE_TIME + Math.floor(rows * 0.5) * 1000, snapTimeEnd: BASE_TIME + Math.floor(rows * 0.55) * 1000 },
    }),
    sortable: ['snapTime', 'deviceNo', 'deviceType', 'state', 'batteryLevel', 'signalStrength', 'createdTime', 'lastModifiedTime'],
    sortedFilters: [
      ['deviceNo', 'snapTime', true],
      ['state', 'batteryLevel', false],
    ],
  },
];

/** The identifier of row n (1-based) of a tenant. */
export const idOf = (n) => `s${String(n).padStart(20, '0')}`;

/**
 * `rows` live rows of `tenant` in each of `tables` (all by default), in chunks of `chunk` rows (fewer take less
 * of the server's lock table: a small buffer pool refuses an INSERT ... SELECT of 100,000 rows) (one transaction each): the first through the triggers, the
 * others without them and counted afterwards, then deletedRows(rows) logically deleted ones (deleted at their
 * creation time plus their number, so their deletion order is their number's); then the tenant's counts are checked.
 */
export async function seed(db, tenant, rows, log, { tables = TABLES, chunk = CHUNK } = {}) {
  const numbers = (await hasSequenceEngine(db))
    ? (from, to) => `SELECT seq AS n FROM seq_${from}_to_${to}`
    : (from, to) => `WITH RECURSIVE s (n) AS (SELECT ${from} UNION ALL SELECT n + 1 FROM s WHERE n < ${to}) SELECT n FROM s`;
  await db
    .query('SET SESSION max_recursive_iterations = 100000000')
    .catch(() => db.query('SET SESSION cte_max_recursion_depth = 100000000'));
  for (const table of tables) {
    const insert = async (from, to, deleteTime = '0') => {
      const started = performance.now();
      // a range the server's lock table cannot hold at once (its buffer pool is small, or shrunk meanwhile by
      // other work on a shared server) goes in as two halves
      const insertRange = async (first, last) => {
        try {
          await db.query(
            `INSERT INTO ${table.table} (${table.columns}) SELECT ${table.values(tenant, deleteTime)} FROM (${numbers(first, last)}) numbers`,
          );
        } catch (error) {
          if (error.code !== 'ER_LOCK_TABLE_FULL' || last - first < 1000) throw error;
          const middle = Math.floor((first + last) / 2);
          await insertRange(first, middle);
          await insertRange(middle + 1, last);
        }
      };
      for (let first = from; first <= to; first += chunk) {
        const last = Math.min(to, first + chunk - 1);
        await insertRange(first, last);
        if ((last - from + 1) % PROGRESS === 0 && last < to) progress(last - from + 1, to - from + 1, performance.now() - started);
      }
    };
    // how far a long seed has come, and how long the rest takes at the rate so far
    const progress = (done, total, ms) =>
      log(
        `${table.table}, ${tenant}: ${count(done)} of ${count(total)} rows at ${rate(done, ms)}, ${seconds(((total - done) / done) * ms)} to go`,
      );
    const columns = await countedColumns(db, table.table);
    const triggered = Math.min(rows, chunk);
    const withTriggers = await timed(() => insert(1, triggered));
    let report = `${table.table}, ${tenant}: ${count(triggered)} rows through the triggers at ${rate(triggered, withTriggers)}`;
    const bulk = rows - triggered;
    const deleted = deletedRows(rows);
    let withoutThem;
    const counting = await timed(() =>
      withoutTriggers(db, table.table, async () => {
        withoutThem = await timed(async () => {
          if (bulk > 0) await insert(triggered + 1, rows);
          if (deleted > 0) await insert(rows + 1, rows + deleted, `${BASE_TIME} + 10000000000 + n`);
        });
        await addCounts(db, { table: table.table, keyColumn: table.key, tenant, after: idOf(triggered), columns });
      }),
    );
    report += `, ${count(bulk)} live and ${count(deleted)} deleted without them at ${rate(bulk + deleted, withoutThem)}, their counts added in ${seconds(counting - withoutThem)}`;
    const checking = await timed(() => verifyCounts(db, { table: table.table, tenant, columns }));
    log(`${report}; counts checked against the rows in ${seconds(checking)}`);
  }
}

async function timed(run) {
  const started = performance.now();
  await run();
  return performance.now() - started;
}

const count = (n) => n.toLocaleString('en');
const rate = (rows, ms) => `${count(Math.round(rows / (ms / 1000)))} rows/s`;
const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;

export async function analyze(db, tables = TABLES) {
  for (const table of [...tables.map((t) => t.table), 'record_history']) await db.query(`ANALYZE TABLE ${table}`);
}

async function hasSequenceEngine(db) {
  try {
    await db.query('SELECT seq FROM seq_1_to_1');
    return true;
  } catch {
    return false;
  }
}
