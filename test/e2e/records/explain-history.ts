/**
 * Every history read is served by an index (docs/indexes.md, "The history"): for a resource's historyPage (one record,
 * or all its records) and for the tenant-wide view unfiltered and with each filter it takes (resource, username,
 * action, a time range, resource with action), EXPLAIN of the statements the service runs shows an index scan without
 * "Using filesort" for the rows and an index for a counted total; a total the kept counts hold (history-count-sql.ts)
 * is no COUNT at all. record_history holds a few thousand generated entries over several tenants, analysed.
 * MySQL/MariaDB only: on the SQLite leg (no DB_URL) the tests are reported as skipped.
 */
import { usingMysql } from '../../support/database';
import { resourceSpec } from '../../support/tables';
import { startApp, TestApp } from '../../support/test-app';
import type { Json } from '../../support/json';
import { keyScan } from './explain';

const mysqlDescribe = usingMysql() ? describe : describe.skip;

const TENANT = 'tenant-h';
const T0 = 1767225600000;
const PAGE_SIZE = 10;
const TABLES = ['configuration_data_dictionary_table', 'configuration_data_dictionary_type', 'snapshot_device_state_snap'];

/**
 * 5,000 entries in one statement: 4 in 5 of TENANT (the others of four more tenants), of three tables, records with
 * five entries each, 20 writers, the five actions, one second apart (time grows with the entry, as it does).
 */
async function fill(t: TestApp): Promise<void> {
  await t.dataSource.query(
    `INSERT INTO record_history (tenant_id, table_name, record_id, revision, action, username, time, request_id, trace_id,
       changed_fields, changed_values)
     WITH RECURSIVE seq(n) AS (SELECT 0 UNION ALL SELECT n + 1 FROM seq WHERE n < 99)
     SELECT IF(x % 5 <> 0, '${TENANT}', CONCAT('tenant-', x % 4)), ELT(1 + FLOOR(x / 5) % 3, ${TABLES.map((table) => `'${table}'`).join(', ')}),
       CONCAT('r', FLOOR(x / 5)), x % 5 + 1, ELT(1 + x % 5, 'CREATE', 'UPDATE', 'DELETE', 'RESTORE', 'PURGE'), CONCAT('user-', x % 20),
       ${T0} + x * 1000, NULL, NULL, '["value"]', '[["a","b"]]'
     FROM (SELECT a.n * 50 + b.n AS x FROM seq a CROSS JOIN seq b WHERE b.n < 50) entries`,
  );
  await t.dataSource.query('ANALYZE TABLE record_history PERSISTENT FOR ALL');
}

/** The statements on record_history one history request runs: its rows and, unless a kept count holds its total, its count. */
async function historyStatements(
  t: TestApp,
  path: string,
  body: Json,
): Promise<{ rows: [string, unknown[]][]; counts: [string, unknown[]][] }> {
  const query = jest.spyOn(t.dataSource.logger, 'logQuery');
  let statements: [string, unknown[]][];
  try {
    const res = await t.post(path, { ...body, current: 1, pageSize: PAGE_SIZE }, { tenantId: TENANT, sub: 'explain' });
    expect(res).toMatchObject({ status: 200 });
    expect((res.data as unknown[]).length).toBeGreaterThan(0);
    statements = query.mock.calls.map(([sql, params]) => [sql, (params as unknown[] | undefined) ?? []]);
  } finally {
    query.mockRestore();
  }
  const own = statements.filter(([sql]) => /`record_history`/.test(sql));
  return { rows: own.filter(([sql]) => /\bLIMIT\b/.test(sql)), counts: own.filter(([sql]) => /COUNT\(/.test(sql)) };
}

const explain = (t: TestApp, [sql, params]: [string, unknown[]]): Promise<Json[]> => t.dataSource.query(`EXPLAIN ${sql}`, params);

/**
 * The plan in one comparable object: the keys read on an index (range/ref), the entries then by primary key, whether
 * the keys are sorted, and whether they are read without reading a row (what makes sorting a time range's keys cheap).
 */
const plan = (rows: Json[]) => {
  const scan = keyScan(rows);
  const joined = rows.filter((row) => row !== scan && !String(row.table).startsWith('<derived'));
  return {
    onlyIndex: /Using index(?! condition)/.test(String(scan.Extra ?? '')),
    indexed: ['range', 'ref', 'const'].includes(String(scan.type)) && scan.key !== null && joined.every((row) => row.key === 'PRIMARY'),
    filesort: /Using filesort/.test(String(scan.Extra ?? '')),
  };
};

mysqlDescribe('EXPLAIN of history reads (MySQL/MariaDB)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp();
    await fill(t);
  });
  afterAll(() => t?.close());

  const resource = `${resourceSpec('data-dictionary-table').prefix}/data-dictionary-table/historyPage`;
  const tenantWide = '/main-service/system-api/history/page';
  const sets = resourceSpec('data-dictionary-type').permission;
  const range = { timeStart: T0 + 1_000_000, timeEnd: T0 + 2_000_000 };
  // [name, path, body, whether the kept counts hold the total, whether the page's keys are sorted (a time bound: its matches' keys)]
  const cases: [string, string, Json, boolean, boolean][] = [
    ['one record', resource, { recordId: 'r3' }, false, false],
    ['one record, time range', resource, { recordId: 'r300', ...range }, false, false],
    ['one resource', resource, {}, true, false],
    ['one resource, username', resource, { username: 'user-7' }, true, false],
    ['one resource, action', resource, { action: 'DELETE' }, true, false],
    ['one resource, time range', resource, range, false, true],
    ['tenant-wide', tenantWide, {}, true, false],
    ['tenant-wide, resource', tenantWide, { resource: sets }, true, false],
    ['tenant-wide, username', tenantWide, { username: 'user-7' }, true, false],
    ['tenant-wide, action', tenantWide, { action: 'DELETE' }, true, false],
    ['tenant-wide, username and action', tenantWide, { username: 'user-7', action: 'DELETE' }, false, false],
    ['tenant-wide, time range', tenantWide, range, false, true],
    ['tenant-wide, username and time range', tenantWide, { username: 'user-7', ...range }, false, true],
  ];

  it.each(cases)(
    '%s: the page is an index scan (sorting only a time range’s keys); a counted total uses an index',
    async (_name, path, body, kept, sorted) => {
      const { rows, counts } = await historyStatements(t, path, body);
      expect([rows.length, counts.length]).toEqual([1, kept ? 0 : 1]);
      const keys = plan(await explain(t, rows[0]));
      // the keys a time range sorts are read without reading the entries
      expect({ ...keys, onlyIndex: sorted ? keys.onlyIndex : true }).toEqual({ indexed: true, filesort: sorted, onlyIndex: true });
      if (!kept) expect(plan(await explain(t, counts[0]))).toMatchObject({ indexed: true });
    },
  );
});
