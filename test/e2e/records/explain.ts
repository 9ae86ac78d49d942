/**
 * Every accepted filter and sort is served by an index (docs/indexes.md): for every resource of the table, EXPLAIN
 * of the statements the service really runs for a page (its rows and its count) shows an index (type
 * range/ref/const, a key) and no "Using filesort" for the rows: unfiltered, with the time range, with each
 * declared exact filter (alone and with the time range) in the default order, and sorted by each sortable field
 * (ascending and descending) without a filter. The filters, sorts and keys come from the resource declarations,
 * so a declaration whose index is missing fails here. Each table holds a few thousand generated rows over
 * several tenants, analysed, so the optimiser plans as on a real table (measured on a million rows in docs/indexes.md).
 * MySQL/MariaDB only: on the SQLite leg (no DB_URL) the tests are reported as skipped.
 */
import { AnyResource, countedFilterColumns } from '@app/common';
import { EntityMetadata } from 'typeorm';
import { CONFIGURATION_RESOURCES } from '../../../apps/main-service/src/configuration/configuration.resources';
import { MESSAGE_RESOURCES } from '../../../apps/main-service/src/message/message.resources';
import { SNAPSHOT_RESOURCES } from '../../../apps/main-service/src/snapshot/snapshot.resources';
import { defaultSortIndex } from '../../../libs/common/src/crud/fields/resource-indexes';
import { usingMysql } from '../../support/database';
import { ResourceSpec } from '../../support/resource-table';
import { ALL_RESOURCES } from '../../support/tables';
import { startApp, TestApp } from '../../support/test-app';
import { budget } from '../../support/time-budget';
import type { Json } from '../../support/json';

const mysqlDescribe = usingMysql() ? describe : describe.skip;

/** 50 x 50 generated rows (MariaDB's recursive CTEs stop at 1000 iterations by default). */
const ROWS = 2500;
const T0 = 1767225600000;
/** A row of tenant-a (x % 5 <> 0) that is live (x % 7 <> 0): its business key value exists, for a filter on the whole key. */
const LIVE_ROW = 1;

const DECLARED: AnyResource[] = [...CONFIGURATION_RESOURCES, ...MESSAGE_RESOURCES, ...SNAPSHOT_RESOURCES].map((x) => x.resource);

/** The declaration behind a row of the test table (its filters, sorts, key and time range). */
export function declarationOf(r: ResourceSpec): AnyResource {
  const found = DECLARED.find((d) => `${r.prefix}/${r.segment}` === `/main-service/${d.path}`);
  if (!found) throw new Error(`no resource declaration for ${r.segment}`);
  return found;
}

/** The table of a resource. */
export function metadataOf(t: TestApp, d: AnyResource): EntityMetadata {
  return t.dataSource.getMetadata(d.entity);
}

/** The last field of the business key: distinct per generated row, so the unique index holds. */
const distinctKeyField = (d: AnyResource): string | undefined => d.uniqueKey?.[d.uniqueKey.length - 1];

/**
 * Fills the table in one statement: 4 rows in 5 in tenant-a (the others in four more tenants), 1 in 7
 * logically deleted, the sample's value in 1 row in 8 of each filter column (other rows: 50 other values, or
 * the other boolean), times one second apart, the last field of a business key distinct per row. A filter
 * then matches a few hundred rows of the tenant: too many to sort for one page, as on a real table (with a
 * few dozen the optimiser rightly sorts them), and too few to find by reading another index in order.
 */
async function fill(t: TestApp, r: ResourceSpec, d: AnyResource, meta: EntityMetadata): Promise<void> {
  const sample = r.sample('explain');
  const q = (v: string) => t.dataSource.driver.escape(v);
  const literal = (v: unknown) => (typeof v === 'string' ? `'${v.replace(/'/g, "''")}'` : String(v));
  const values = meta.columns.map((column) => {
    const name = column.propertyName;
    if (name === 'tenantId') return "IF(x % 5 <> 0, 'tenant-a', CONCAT('tenant-', x % 4))";
    if (name === 'deleteTime') return `IF(x % 7 = 0, ${T0} + x, 0)`;
    if (name === d.idField) return "CONCAT('id', x)";
    if (name === distinctKeyField(d)) return "CONCAT('k', x)"; // unique keys stay unique
    if ((d.filters as string[]).includes(name) && typeof sample[name] === 'string')
      return `IF(x % 8 = 1, ${literal(sample[name])}, CONCAT('v', x % 50))`;
    if ((d.filters as string[]).includes(name) && typeof sample[name] === 'boolean')
      return `IF(x % 8 = 1, ${sample[name]}, NOT ${sample[name]})`;
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
  // MariaDB: with the columns' histograms (as a production table collects them) the optimiser knows how few rows a value matches
  const mariaDb = /mariadb/i.test(String((await t.dataSource.query('SELECT VERSION() AS v'))[0].v));
  await t.dataSource.query(`ANALYZE TABLE ${q(meta.tableName)}${mariaDb ? ' PERSISTENT FOR ALL' : ''}`);
}

/**
 * The statements a first page runs, as the database receives them: its rows and, with filters, its count (same
 * conditions) unless the rows show the end (fewer than a page); without one, or by one counted exact filter, the total
 * is a kept count, no COUNT.
 */
const PAGE_SIZE = 10;

async function pageStatements(
  t: TestApp,
  r: ResourceSpec,
  body: Json,
  op: 'page' | 'deletedPage' = 'page',
): Promise<{ rows: [string, unknown[]]; count?: [string, unknown[]] }> {
  // every statement of the page's snapshot, sent by its query runner or on the runner's connection directly
  // (persistence/sql/run-statement.ts): both go through TypeORM's query log hook
  const query = jest.spyOn(t.dataSource.logger, 'logQuery');
  let statements: [string, unknown[]][];
  let full: boolean;
  try {
    const res = await t.post(`${r.prefix}/${r.segment}/${op}`, { ...body, current: 1, pageSize: PAGE_SIZE });
    expect(res).toMatchObject({ status: 200 });
    full = (res.data as unknown[]).length === PAGE_SIZE;
    statements = query.mock.calls.map(([sql, params]) => [sql, (params as unknown[] | undefined) ?? []]);
  } finally {
    query.mockRestore();
  }
  // the page's own statements: on its table (background jobs of the app run statements meanwhile)
  const table = `\`${metadataOf(t, declarationOf(r)).tableName}\``;
  statements = statements.filter(([sql]) => sql.includes(table) && !/information_schema/i.test(sql));
  const rows = statements.filter(([sql]) => /\bLIMIT\b/.test(sql));
  const count = statements.filter(([sql]) => /COUNT\(1\)/.test(sql));
  const conditions = Object.keys(body).filter((key) => key !== 'sqlQuerySorter');
  const meta = metadataOf(t, declarationOf(r));
  const kept =
    conditions.length === 1 && countedFilterColumns(meta).includes(meta.findColumnWithPropertyName(conditions[0])?.databaseName ?? '');
  expect([rows.length, count.length]).toEqual([1, conditions.length > 0 && !kept && full ? 1 : 0]);
  return { rows: rows[0], count: count[0] };
}

async function explain(t: TestApp, [sql, params]: [string, unknown[]]): Promise<Json[]> {
  return t.dataSource.query(`EXPLAIN ${sql}`, params);
}

/**
 * The statement's own scan: a deferred join's derived table (the page's keys, from an index), else the only table.
 * The rows a deferred join then reads by primary key are sorted again, at most one page of them.
 */
export const keyScan = (rows: Json[]): Json => rows.find((row) => row.select_type === 'DERIVED') ?? rows[0];

/** What EXPLAIN says of the plan, in one comparable object. */
const plan = (rows: Json[]) => {
  const scan = keyScan(rows);
  const joined = rows.filter((row) => row !== scan && !String(row.table).startsWith('<derived'));
  return {
    tables: rows.length - (scan === rows[0] ? 0 : 2),
    indexed: ['range', 'ref', 'eq_ref', 'const'].includes(scan.type) && scan.key !== null && joined.every((row) => row.key === 'PRIMARY'),
    filesort: /Using filesort/.test(String(scan.Extra ?? '')),
  };
};

/**
 * The indexes of a table that serve an equality on `column`: it stands in the run of leading columns that the
 * query fixes by equality (the tenant, the live marker and the body's filters). The optimiser may still prefer
 * an ordered scan on a small table, so the page's plan is not required to pick one, only to be offered one.
 */
async function servingIndexes(t: TestApp, table: string, column: string, fixed: Set<string>): Promise<string[]> {
  const rows: { name: string; col: string }[] = await t.dataSource.query(
    `SELECT INDEX_NAME AS name, COLUMN_NAME AS col FROM information_schema.STATISTICS
     WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = ? ORDER BY INDEX_NAME, SEQ_IN_INDEX`,
    [table],
  );
  const columns = new Map<string, string[]>();
  for (const { name, col } of rows) columns.set(name, [...(columns.get(name) ?? []), col]);
  return [...columns]
    .filter(([, cols]) => {
      const end = cols.findIndex((c) => !fixed.has(c));
      return cols.slice(0, end < 0 ? cols.length : end).includes(column);
    })
    .map(([name]) => name);
}

/** The page bodies a declaration accepts: unfiltered, time range, each filter (alone and with the range), each sort both ways. */
function pageBodies(r: ResourceSpec, d: AnyResource): [string, Json][] {
  const sample = r.sample('explain');
  const field = d.timeRange;
  const range = field ? { [`${field}Start`]: T0 + 100_000, [`${field}End`]: T0 + 2_000_000 } : undefined;
  const valueOf = (f: string) => (f === distinctKeyField(d) ? `k${LIVE_ROW}` : sample[f]);
  const filtered = d.filters.map((f): [string, Json] => [f, { [f]: valueOf(f) }]);
  return [
    ['no filter', {}],
    ...(range ? ([['time range', range]] as [string, Json][]) : []),
    ...filtered,
    ...(range ? filtered.map(([f, body]): [string, Json] => [`${f} + time range`, { ...body, ...range }]) : []),
    ...d.sortable.flatMap((s) =>
      (['ascend', 'descend'] as const).map((order): [string, Json] => [`sorted by ${s} ${order}`, { sqlQuerySorter: { field: s, order } }]),
    ),
  ];
}

mysqlDescribe('EXPLAIN of page queries (MySQL/MariaDB)', () => {
  let t: TestApp;
  beforeAll(async () => {
    // the rows are generated with SQL, past the service's write versions: every page counts (no reused totals)
    t = await startApp({ PAGE_TOTAL_TTL_MS: '0' });
    for (const r of ALL_RESOURCES) await fill(t, r, declarationOf(r), metadataOf(t, declarationOf(r)));
  }, budget(300_000));
  afterAll(async () => {
    await t?.close();
  });

  it('the test table has every declared resource of main-service', () => {
    expect(ALL_RESOURCES.map((r) => declarationOf(r).path).sort()).toEqual(DECLARED.map((d) => d.path).sort());
  });

  describe.each(ALL_RESOURCES)('$segment', (r) => {
    it.each(pageBodies(r, declarationOf(r)))(
      '%s: the page is an index scan without filesort; its count uses an index',
      async (_name, body) => {
        const statements = await pageStatements(t, r, body);
        expect(statements.rows[0]).toMatch(/ORDER BY/);
        expect(statements.rows[0]).toMatch(/LIMIT/);
        expect(plan(await explain(t, statements.rows))).toEqual({ tables: 1, indexed: true, filesort: false });
        if (statements.count) expect(plan(await explain(t, statements.count))).toMatchObject({ tables: 1, indexed: true });
        // every exact filter of the body has an index the optimiser is offered (dropping one fails here)
        const d = declarationOf(r);
        const meta = metadataOf(t, d);
        const columnOf = (f: string) => meta.findColumnWithPropertyName(f)!.databaseName;
        const filters = d.filters.filter((f) => f in body).map(columnOf);
        const fixed = new Set(['tenant_id', 'delete_time', ...filters]);
        const offered = String(keyScan(await explain(t, statements.rows)).possible_keys ?? '').split(',');
        for (const column of filters) {
          const serving = await servingIndexes(t, meta.tableName, column, fixed);
          expect({ column, offered: serving.filter((name) => offered.includes(name)).length > 0 }).toEqual({ column, offered: true });
        }
      },
    );

    it('deletedPage, newest deletion first: an index scan without filesort (the default sort index read backwards)', async () => {
      const statements = await pageStatements(t, r, {}, 'deletedPage');
      // the index is named: sampled statistics can make a filesort of the whole tenant look cheaper to MariaDB
      expect(statements.rows[0]).toContain(`USE INDEX (\`${defaultSortIndex(declarationOf(r))}\`)`);
      expect(plan(await explain(t, statements.rows))).toEqual({ tables: 1, indexed: true, filesort: false });
      const res = await t.post(`${r.prefix}/${r.segment}/deletedPage`, { current: 1, pageSize: 10 });
      expect(res.extraData.total).toBeGreaterThan(ROWS / 20);
    });

    it('the generated rows make the plans meaningful: the page finds rows of the tenant', async () => {
      const res = await t.post(`${r.prefix}/${r.segment}/page`, { current: 1, pageSize: 10 });
      expect(res.status).toBe(200);
      expect(res.extraData.total).toBeGreaterThan(ROWS / 10);
      expect(res.data).toHaveLength(10);
    });
  });

  it("myPage (the caller's inbox): the notifications on the status filter's index in publishTime order, the caller's row by its unique key", async () => {
    const query = jest.spyOn(t.dataSource.logger, 'logQuery');
    let statements: [string, unknown[]][];
    try {
      const caller = { tenantId: 'tenant-a', sub: 'k1', roles: ['v1'], permissions: [] };
      const res = await t.post('/main-service/system-api/message/notification-user/myPage', { current: 1, pageSize: PAGE_SIZE }, caller);
      expect(res).toMatchObject({ status: 200 });
      statements = query.mock.calls.map(([sql, params]) => [sql, (params as unknown[] | undefined) ?? []]);
    } finally {
      query.mockRestore();
    }
    const own = statements.filter(([sql]) => sql.includes('`message_notification_user`'));
    const rows = own.filter(([sql]) => /\bLIMIT\b/.test(sql));
    const counts = own.filter(([sql]) => /COUNT\(/.test(sql));
    expect([rows.length, counts.length]).toEqual([1, 1]);
    for (const [statement, ordered] of [
      [rows[0], true],
      [counts[0], false],
    ] as const) {
      const explained = await explain(t, statement);
      const notifications = explained.find((row) => row.table === 'n')!;
      const callerRow = explained.find((row) => row.table === 'r')!;
      // in publishTime order: the status filter's index (published ones only) or the publishTime index; the count may use any
      const inOrder = ['idx_message_notification_status_publish_time', 'idx_message_notification_publish_time'];
      expect({
        indexed: ordered ? inOrder.includes(notifications.key) : notifications.key !== null,
        type: ['range', 'ref', 'index'].includes(notifications.type),
        filesort: /Using filesort/.test(String(notifications.Extra ?? '')),
        rowKey: callerRow.key,
        rowType: ['eq_ref', 'ref'].includes(callerRow.type),
      }).toEqual({ indexed: true, type: true, filesort: false, rowKey: 'uk_message_notification_user', rowType: true });
    }
  });
});
