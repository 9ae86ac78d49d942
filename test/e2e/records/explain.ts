/**
 * Page queries stay index range scans (docs/indexes.md): for every resource of the table, EXPLAIN
 * of the statement the service really runs for a page's rows (and of a count with its conditions), unfiltered and with
 * each exact filter plus the time range, shows an index (type range/ref, a key) and, for the default sort,
 * no "Using filesort". Each table holds a few thousand generated rows over several tenants, analysed, so
 * the optimiser plans as on a real table (measured on a million rows in docs/indexes.md).
 * MySQL/MariaDB only: on the SQLite leg (no DB_URL) the tests are reported as skipped.
 */
import { EntityMetadata } from 'typeorm';
import { ResourceSpec } from '../../support/resource-table';
import { ALL_RESOURCES } from '../../support/tables';
import { startApp, TestApp } from '../../support/test-app';
import type { Json } from '../../support/json';

const mysqlDescribe = process.env.DB_URL ? describe : describe.skip;

/** 50 x 50 generated rows (MariaDB's recursive CTEs stop at 1000 iterations by default). */
const ROWS = 2500;
const T0 = 1767225600000;

/** The table of a resource: the entity whose primary key holds its identifier. */
function metadataOf(t: TestApp, r: ResourceSpec): EntityMetadata {
  const meta = t.dataSource.entityMetadatas.find((m) => m.primaryColumns.some((c) => c.propertyName === r.idField));
  if (!meta) throw new Error(`no table for ${r.segment}`);
  return meta;
}

/**
 * Fills the table in one statement: 1 row in 5 in tenant-a, 1 in 7 logically deleted, the sample's value
 * in 1 row in 4 of each string filter column (other rows: 50 other values), times one second apart, the
 * last field of a business key distinct per row.
 */
async function fill(t: TestApp, r: ResourceSpec, meta: EntityMetadata): Promise<void> {
  const sample = r.sample('explain');
  const q = (v: string) => t.dataSource.driver.escape(v);
  const literal = (v: unknown) => (typeof v === 'string' ? `'${v.replace(/'/g, "''")}'` : String(v));
  const values = meta.columns.map((column) => {
    const name = column.propertyName;
    if (name === 'tenantId') return "IF(x % 5 = 0, 'tenant-a', CONCAT('tenant-', x % 5))";
    if (name === 'deleteTime') return `IF(x % 7 = 0, ${T0} + x, 0)`;
    if (name === r.idField) return "CONCAT('id', x)";
    if (name === r.keyFields[r.keyFields.length - 1]) return "CONCAT('k', x)"; // unique keys stay unique
    if (r.filterFields.includes(name) && typeof sample[name] === 'string')
      return `IF(x % 4 = 0, ${literal(sample[name])}, CONCAT('v', x % 50))`;
    const type = typeof column.type === 'string' ? column.type : (column.type as { name?: string }).name?.toLowerCase();
    if (type === 'bigint') return `${T0} + x * 1000`; // epoch-millisecond columns
    if (type === 'boolean' || type === 'bool') return 'x % 2';
    if (['int', 'integer', 'smallint', 'tinyint', 'double', 'float', 'decimal', 'real', 'number'].includes(type ?? '')) return 'x % 100';
    return "CONCAT('v', x % 50)";
  });
  await t.dataSource.query(
    `INSERT INTO ${q(meta.tableName)} (${meta.columns.map((c) => q(c.databaseName)).join(', ')})
     WITH RECURSIVE seq(n) AS (SELECT 0 UNION ALL SELECT n + 1 FROM seq WHERE n < 49)
     SELECT ${values.join(', ')} FROM (SELECT a.n * 50 + b.n AS x FROM seq a CROSS JOIN seq b) rows_`,
  );
  await t.dataSource.query(`ANALYZE TABLE ${q(meta.tableName)}`);
}

/**
 * The statements a first page runs, as the database receives them: its rows and, with a filter, its count (same
 * conditions); without one the total is the kept live count, no COUNT.
 */
async function pageStatements(
  t: TestApp,
  r: ResourceSpec,
  body: Json,
): Promise<{ rows: [string, unknown[]]; count?: [string, unknown[]] }> {
  const query = jest.spyOn(t.dataSource.manager, 'query');
  let statements: [string, unknown[]][];
  try {
    const res = await t.post(`${r.prefix}/${r.segment}/page`, { ...body, current: 1, pageSize: 10 });
    expect(res).toMatchObject({ status: 200 });
    statements = query.mock.calls.map(([sql, params]) => [sql, (params as unknown[] | undefined) ?? []]);
  } finally {
    query.mockRestore();
  }
  const rows = statements.filter(([sql]) => /\bLIMIT\b/.test(sql));
  const count = statements.filter(([sql]) => /COUNT\(1\)/.test(sql));
  expect([rows.length, count.length]).toEqual([1, Object.keys(body).length ? 1 : 0]);
  return { rows: rows[0], count: count[0] };
}

async function explain(t: TestApp, [sql, params]: [string, unknown[]]): Promise<Json[]> {
  return t.dataSource.query(`EXPLAIN ${sql}`, params);
}

/** What EXPLAIN says of the plan, in one comparable object. */
const plan = (rows: Json[]) => ({
  tables: rows.length,
  indexed: ['range', 'ref', 'eq_ref', 'const'].includes(rows[0].type) && rows[0].key !== null,
  filesort: /Using filesort/.test(String(rows[0].Extra ?? '')),
});

mysqlDescribe('EXPLAIN of page queries (MySQL/MariaDB)', () => {
  let t: TestApp;
  beforeAll(async () => {
    // the rows are generated with SQL, past the service's write versions: every page counts (no reused totals)
    t = await startApp({ PAGE_TOTAL_TTL_MS: '0' });
    for (const r of ALL_RESOURCES) await fill(t, r, metadataOf(t, r));
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });

  describe.each(ALL_RESOURCES)('$segment', (r) => {
    const sample = r.sample('explain');
    const range = r.timeRange ? { [`${r.timeRange.field}Start`]: T0 + 100_000, [`${r.timeRange.field}End`]: T0 + 2_000_000 } : {};
    /** Unfiltered, then each exact filter (with the time range where the resource has one). */
    const bodies: [string, Json][] = [
      ['no filter', {}],
      ...(r.timeRange ? ([['time range only', range]] as [string, Json][]) : []),
      ...r.filterFields
        .filter((f) => r.timeRange && typeof sample[f] === 'string')
        .map((f): [string, Json] => [`${f} + time range`, { [f]: sample[f], ...range }]),
    ];

    it.each(bodies)('%s: the default-sorted page is an index range scan without filesort; its count uses an index', async (_name, body) => {
      const statements = await pageStatements(t, r, body);
      expect(statements.rows[0]).toMatch(/ORDER BY/);
      expect(statements.rows[0]).toMatch(/LIMIT/);
      expect(plan(await explain(t, statements.rows))).toEqual({ tables: 1, indexed: true, filesort: false });
      if (statements.count) expect(plan(await explain(t, statements.count))).toMatchObject({ tables: 1, indexed: true });
    });

    it('the generated rows make the plans meaningful: the page finds rows of the tenant', async () => {
      const res = await t.post(`${r.prefix}/${r.segment}/page`, { current: 1, pageSize: 10 });
      expect(res.status).toBe(200);
      expect(res.extraData.total).toBeGreaterThan(ROWS / 10);
      expect(res.data).toHaveLength(10);
    });
  });
});
