// The history of the scale benchmark: a tenant's record_history entries written by SQL (INSERT ... SELECT over a
// number sequence, in chunks, with record_history's count triggers dropped and the tenant's counts then set by
// GROUP BY and checked), and the history reads bench:scale times. Entry n of a tenant of `entries`:
// - n <= HOT_RECORDS * HOT_ENTRIES: one of HOT_RECORDS records of data-dictionary-table with HOT_ENTRIES entries
//   each (a CREATE, then UPDATEs), the same at every tenant size, so a record's history page reads as much at both;
// - the others: a record of one of three tables (FLOOR(n / 4) % 3) with four entries: CREATE, two UPDATEs, then a
//   DELETE, RESTORE or PURGE for a fifth of the records each (an UPDATE for the others);
// - written by one of 20 users (n % 20), at BASE_TIME + n seconds (time grows with the entry, as it does).
// Each filter value below selects about 5% of the tenant's entries. The trigger-made entries of the record tables'
// own seeding (their first chunk's CREATEs) are removed first, so a tenant has exactly `entries`.
import { withoutTriggers } from './lib/seed-counters.mjs';
import { idOf } from './scale-seed.mjs';

const BASE_TIME = 1_770_000_000_000;
const CHUNK = 100_000;
const HOT_RECORDS = 5;
const HOT_ENTRIES = 1_000;
const PAGE_SIZE = 20;
/** A deep page of one record's history, and of the tenant-wide view. */
const DEEP_PAGE = 50;
const SLOTS = 8; // as the triggers' slot (LIVE_COUNT_SLOTS): the seeding connection's

/** The tables the entries are of, with their resources' permission names (the tenant-wide view's `resource`). */
const HISTORY_TABLES = [
  ['configuration_data_dictionary_table', 'configuration-data-dictionary-table'],
  ['snapshot_device_state_snap', 'snapshot-device-state-snap'],
  ['configuration_data_dictionary_type', 'configuration-data-dictionary-type'],
];

/** The identifier of record n (1-based), as scale-seed.mjs names its rows (idOf): the hot records are rows 1 to 5. */
const recordId = (n) => `CONCAT('s', LPAD(${n}, 20, '0'))`;

const HOT = HOT_RECORDS * HOT_ENTRIES;
const rest = `FLOOR(n / 4) % 3`; // the table of an entry beyond the hot records
const ending = `CASE FLOOR(n / 4) % 5 WHEN 0 THEN 'DELETE' WHEN 1 THEN 'RESTORE' WHEN 2 THEN 'PURGE' ELSE 'UPDATE' END`;
const action = `CASE WHEN n <= ${HOT} THEN IF(n <= ${HOT_RECORDS}, 'CREATE', 'UPDATE') WHEN n % 4 = 0 THEN 'CREATE' WHEN n % 4 = 3 THEN ${ending} ELSE 'UPDATE' END`;

/** The columns of entry n of `tenant`: its record, writer, time and changes (JSON as the triggers write it). */
const entry = (tenant) =>
  [
    `'${tenant}'`,
    `CASE WHEN n <= ${HOT} THEN '${HISTORY_TABLES[0][0]}' ${HISTORY_TABLES.map(([table], i) => `WHEN ${rest} = ${i} THEN '${table}'`).join(' ')} END`,
    `IF(n <= ${HOT}, ${recordId(`n % ${HOT_RECORDS} + 1`)}, ${recordId('FLOOR(n / 4) + 100')})`,
    `IF(n <= ${HOT}, FLOOR((n - 1) / ${HOT_RECORDS}) + 1, n % 4 + 1)`,
    action,
    `CONCAT('user-', n % 20)`,
    `${BASE_TIME} + n * 1000`,
    `CONCAT('req-', n)`,
    'NULL',
    `CASE ${action} WHEN 'CREATE' THEN '["name","value"]' WHEN 'UPDATE' THEN '["value"]' ELSE '[]' END`,
    `CASE ${action} WHEN 'CREATE' THEN CONCAT('[[null,"name ', n, '"],[null,"v"]]') WHEN 'UPDATE' THEN CONCAT('[["v","v', n, '"]]') WHEN 'PURGE' THEN NULL ELSE '[]' END`,
  ].join(', ');

const COLUMNS = 'tenant_id, table_name, record_id, revision, action, username, time, request_id, trace_id, changed_fields, changed_values';

/** `entries` history entries of `tenant` (and none other of it), their counts set from them and checked. */
export async function seedHistory(db, tenant, entries, log) {
  const started = performance.now();
  await withoutTriggers(db, 'record_history', async () => {
    await db.query('DELETE FROM record_history WHERE tenant_id = ?', [tenant]);
    for (let first = 1; first <= entries; first += CHUNK) {
      const last = Math.min(entries, first + CHUNK - 1);
      await db.query(
        `INSERT INTO record_history (${COLUMNS}) SELECT ${entry(tenant)} FROM (SELECT seq AS n FROM seq_${first}_to_${last}) numbers`,
      );
    }
    // the counts the triggers would have kept, in the seeding connection's slot
    for (const [table, keys, counted] of [
      ['history_count', 'table_name, action', 'entries, changes'],
      ['history_writer_count', 'username, table_name', 'entries'],
    ]) {
      const counts = counted.split(', ').map(() => 'COUNT(1)');
      await db.query(`DELETE FROM ${table} WHERE tenant_id = ?`, [tenant]);
      await db.query(
        `INSERT INTO ${table} (tenant_id, ${keys}, slot, ${counted}) SELECT tenant_id, ${keys}, CONNECTION_ID() % ${SLOTS}, ${counts} ` +
          `FROM record_history WHERE tenant_id = ? GROUP BY tenant_id, ${keys}`,
        [tenant],
      );
      const [[{ kept }]] = await db.query(`SELECT SUM(entries) AS kept FROM ${table} WHERE tenant_id = ?`, [tenant]);
      if (Number(kept) !== entries) throw new Error(`${table}, tenant ${tenant}: ${kept} entries kept, ${entries} written`);
    }
  });
  log(`record_history, ${tenant}: ${entries.toLocaleString('en')} entries in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

/** Whether `tenant` has `entries` history entries, and its kept counts say so. */
export async function historySeeded(db, tenant, entries) {
  const [[{ n }]] = await db.query('SELECT COUNT(1) AS n FROM record_history WHERE tenant_id = ?', [tenant]);
  const [[{ kept }]] = await db.query('SELECT SUM(entries) AS kept FROM history_count WHERE tenant_id = ?', [tenant]);
  return Number(n) === entries && Number(kept) === entries;
}

/**
 * The history reads at one tenant size, as scale.mjs times them: [label, method, path, body, goal]. One record's
 * history (first and deep page), a resource's without a record (unfiltered, by writer, by action), and the tenant-wide view: unfiltered (first and
 * deep page), by each filter it takes (resource, username, action, a time range of 5% of the entries in the middle).
 */
export function historyRequests(entries) {
  const record = `/main-service/system-api/configuration/data-dictionary-table/historyPage`;
  const tenantWide = '/main-service/system-api/history/page';
  const page = (current) => ({ current, pageSize: PAGE_SIZE });
  const hot = { recordId: idOf(1) };
  const from = BASE_TIME + Math.floor(entries * 0.5) * 1000;
  return [
    ['one record, first page', record, { ...hot, ...page(1) }, 3],
    [`one record, page ${DEEP_PAGE}`, record, { ...hot, ...page(Math.min(DEEP_PAGE, HOT_ENTRIES / PAGE_SIZE)) }, 5],
    ['one resource, first page', record, page(1), 3],
    ['one resource, username', record, { username: 'user-7', ...page(1) }, 3],
    ['one resource, action', record, { action: 'DELETE', ...page(1) }, 3],
    ['tenant-wide, first page', tenantWide, page(1), 3],
    [`tenant-wide, page ${DEEP_PAGE}`, tenantWide, page(DEEP_PAGE), 5],
    ['tenant-wide, resource', tenantWide, { resource: HISTORY_TABLES[1][1], ...page(1) }, 3],
    ['tenant-wide, username', tenantWide, { username: 'user-7', ...page(1) }, 3],
    ['tenant-wide, action', tenantWide, { action: 'DELETE', ...page(1) }, 3],
    ['tenant-wide, resource and action', tenantWide, { resource: HISTORY_TABLES[1][1], action: 'DELETE', ...page(1) }, 3],
    ['tenant-wide, time range', tenantWide, { timeStart: from, timeEnd: from + Math.floor(entries * 0.05) * 1000, ...page(1) }, 3],
  ].map(([label, path, body, goal]) => [label, 'POST', path, body, goal]);
}
