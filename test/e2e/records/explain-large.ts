/**
 * Every single exact filter with every accepted sort stays cheap on a large tenant (docs/indexes.md "Filters with
 * sorts"): for every main-service resource, with TENANT_ROWS rows of one tenant (and OTHER_ROWS of another),
 * analysed, the first page's rows statement the service really runs is executed under ANALYZE for each declared
 * exact filter with each sortable field (both directions) and with the default sort, and for each sort without a
 * filter. No plan may scan the tenant's rows: no full table or full index scan, and at most a tenth of the tenant's
 * rows read (a filesort included). The pairs whose order an index holds (without a filter every sort; with one the
 * default sort, a sort by the filtered field, or by the default sort's first key: page-order.ts) must read no more
 * than the page and sort nothing. MySQL/MariaDB only: on the SQLite leg the tests are reported as skipped.
 */
import { AnyResource } from '@app/common';
import { EntityMetadata } from 'typeorm';
import { usingMysql } from '../../support/database';
import { ResourceSpec } from '../../support/resource-table';
import { ALL_RESOURCES } from '../../support/tables';
import { startApp, TestApp } from '../../support/test-app';
import { budget } from '../../support/time-budget';
import type { Json } from '../../support/json';
import { declarationOf, keyScan, metadataOf } from './explain';

const mysqlDescribe = usingMysql() ? describe : describe.skip;

const TENANT_ROWS = 200_000;
const OTHER_ROWS = 10_000;
const PAGE_SIZE = 20;
const T0 = 1767225600000;
/** A filter's sample value is in 1 row in 20 of the tenant (10,000 rows): as many as a page may not sort. */
const SHARE = 20;

const distinctKeyField = (d: AnyResource): string | undefined => d.uniqueKey?.[d.uniqueKey.length - 1];

/** Runs `write` with the table's secondary indexes and triggers dropped, then makes them again as they were (faster than keeping them). */
async function withoutIndexes(t: TestApp, table: string, write: () => Promise<void>): Promise<void> {
  const q = (v: string) => t.dataSource.driver.escape(v);
  const columns: { name: string; unique: string | number; col: string; part: number | null }[] = await t.dataSource.query(
    `SELECT INDEX_NAME AS name, NON_UNIQUE AS \`unique\`, COLUMN_NAME AS col, SUB_PART AS part FROM information_schema.STATISTICS
     WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = ? AND INDEX_NAME <> 'PRIMARY' ORDER BY INDEX_NAME, SEQ_IN_INDEX`,
    [table],
  );
  const indexes = new Map<string, { unique: boolean; columns: string[] }>();
  for (const { name, unique, col, part } of columns) {
    const index = indexes.get(name) ?? { unique: Number(unique) === 0, columns: [] };
    index.columns.push(part ? `${q(col)}(${part})` : q(col));
    indexes.set(name, index);
  }
  const triggers: { name: string }[] = await t.dataSource.query(
    'SELECT TRIGGER_NAME AS name FROM information_schema.TRIGGERS WHERE TRIGGER_SCHEMA = DATABASE() AND EVENT_OBJECT_TABLE = ?',
    [table],
  );
  const created: string[] = [];
  for (const { name } of triggers) created.push((await t.dataSource.query(`SHOW CREATE TRIGGER ${q(name)}`))[0]['SQL Original Statement']);
  for (const { name } of triggers) await t.dataSource.query(`DROP TRIGGER ${q(name)}`);
  if (indexes.size) await t.dataSource.query(`ALTER TABLE ${q(table)} ${[...indexes.keys()].map((n) => `DROP INDEX ${q(n)}`).join(', ')}`);
  await write();
  const added = [...indexes].map(([name, i]) => `ADD ${i.unique ? 'UNIQUE ' : ''}INDEX ${q(name)} (${i.columns.join(', ')})`);
  if (added.length) await t.dataSource.query(`ALTER TABLE ${q(table)} ${added.join(', ')}`);
  for (const statement of created) await t.dataSource.query(statement);
}

/**
 * The rows, in one INSERT ... SELECT over MariaDB's sequence engine: rows 1..TENANT_ROWS in tenant-a, the others in
 * tenant-b, 1 in 50 logically deleted; each filter column holds the sample's value in 1 row in SHARE (others one of
 * 50 values, or the other boolean), other columns values spread by a hash of the row and column (no column follows
 * another), times one second apart, the last business key field distinct per row. The live counts the triggers keep
 * are not written (the totals are not what is checked here).
 */
async function fill(t: TestApp, r: ResourceSpec, d: AnyResource, meta: EntityMetadata): Promise<void> {
  const sample = r.sample('explain');
  const q = (v: string) => t.dataSource.driver.escape(v);
  const literal = (v: unknown) => (typeof v === 'string' ? `'${v.replace(/'/g, "''")}'` : String(v));
  const values = meta.columns.map((column) => {
    const name = column.propertyName;
    const hash = (salt: string) => `CRC32(CONCAT('${salt}${column.databaseName}', x))`;
    if (name === 'tenantId') return `IF(x <= ${TENANT_ROWS}, 'tenant-a', 'tenant-b')`;
    if (name === 'deleteTime') return `IF(x % 50 = 0, ${T0} + x, 0)`;
    if (name === d.idField) return "CONCAT('id', LPAD(x, 10, '0'))";
    if (name === distinctKeyField(d)) return "CONCAT('k', x)";
    if ((d.filters as string[]).includes(name) && typeof sample[name] === 'string')
      return `IF(${hash('f')} % ${SHARE} = 0, ${literal(sample[name])}, CONCAT('v', ${hash('v')} % 50))`;
    if ((d.filters as string[]).includes(name) && typeof sample[name] === 'boolean')
      return `IF(${hash('f')} % ${SHARE} = 0, ${sample[name]}, NOT ${sample[name]})`;
    const type = typeof column.type === 'string' ? column.type : (column.type as { name?: string }).name?.toLowerCase();
    if (type === 'bigint') return `${T0} + x * 1000`;
    if (type === 'boolean' || type === 'bool') return `${hash('v')} % 2`;
    if (['int', 'integer', 'smallint', 'tinyint', 'double', 'float', 'decimal', 'real', 'number'].includes(type ?? ''))
      return `${hash('v')} % 100`;
    return `CONCAT('v', ${hash('v')} % 50)`;
  });
  await withoutIndexes(t, meta.tableName, async () => {
    await t.dataSource.query(
      `INSERT INTO ${q(meta.tableName)} (${meta.columns.map((c) => q(c.databaseName)).join(', ')})
       SELECT ${values.join(', ')} FROM (SELECT seq AS x FROM seq_1_to_${TENANT_ROWS + OTHER_ROWS}) rows_`,
    );
  });
  await t.dataSource.query(`ANALYZE TABLE ${q(meta.tableName)}`);
}

/** The statement that reads a first page's rows, as the database receives it. */
async function rowsStatement(t: TestApp, r: ResourceSpec, body: Json): Promise<[string, unknown[]]> {
  const query = jest.spyOn(t.dataSource.logger, 'logQuery');
  let statements: [string, unknown[]][];
  try {
    const res = await t.post(`${r.prefix}/${r.segment}/page`, { ...body, current: 1, pageSize: PAGE_SIZE });
    expect(res).toMatchObject({ status: 200 });
    expect((res.data as unknown[]).length).toBeGreaterThan(0);
    statements = query.mock.calls.map(([sql, params]) => [sql, (params as unknown[] | undefined) ?? []]);
  } finally {
    query.mockRestore();
  }
  const table = `\`${metadataOf(t, declarationOf(r)).tableName}\``;
  const rows = statements.filter(([sql]) => sql.includes(table) && /\bLIMIT\b/.test(sql) && !/information_schema/i.test(sql));
  expect(rows).toHaveLength(1);
  return rows[0];
}

type Direction = 'ASC' | 'DESC';

interface Case {
  name: string;
  filter?: string;
  sort?: [string, Direction];
}

/** Every single exact filter with every sort (and the default), and every sort without a filter. */
function casesOf(d: AnyResource): Case[] {
  const sorts: ([string, Direction] | undefined)[] = [
    undefined,
    ...d.sortable.flatMap((s): [string, Direction][] => [
      [s, 'ASC'],
      [s, 'DESC'],
    ]),
  ];
  const named = (filter: string | undefined, sort: [string, Direction] | undefined) =>
    `${filter ?? 'no filter'}, ${sort ? `sorted by ${sort[0]} ${sort[1]}` : 'default order'}`;
  return [undefined, ...d.filters].flatMap((filter) => sorts.map((sort): Case => ({ name: named(filter, sort), filter, sort })));
}

/**
 * Whether an index holds the case's order after the equalities (tenant, live, the filter), as docs/indexes.md
 * "Filters with sorts" says: every sort without a filter; with one, the default order, a sort by the filtered field,
 * or by the default sort's first key. Its plan reads one page and sorts nothing.
 */
function indexOrdered(d: AnyResource, { filter, sort }: Case): boolean {
  if (d.uniqueKey?.length === 1 && d.uniqueKey[0] === filter) return false; // the unique index: at most one live row
  if (!filter || !sort) return true;
  const [first] = d.defaultSort.map(([key]) => key).filter((key) => key !== filter);
  return sort[0] === filter || sort[0] === first;
}

mysqlDescribe(
  `ANALYZE of first pages by every filter and sort, ${TENANT_ROWS.toLocaleString('en')} rows of a tenant (MySQL/MariaDB)`,
  () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await startApp({ PAGE_TOTAL_TTL_MS: '0' });
    }, budget(120_000));
    afterAll(async () => {
      await t?.close();
    });

    describe.each(ALL_RESOURCES)('$segment', (r) => {
      const d = declarationOf(r);
      beforeAll(async () => {
        await fill(t, r, d, metadataOf(t, d));
      }, budget(120_000));
      afterAll(async () => {
        // the next resource's rows get the server's memory
        await t.dataSource.query(`TRUNCATE TABLE ${t.dataSource.driver.escape(metadataOf(t, d).tableName)}`);
      });

      it(
        'reads at most a tenth of the tenant rows for every case, and one page for the cases an index orders',
        async () => {
          const sample = r.sample('explain');
          const valueOf = (f: string) => (f === distinctKeyField(d) ? 'k1' : sample[f]);
          const plans: Json[] = [];
          for (const c of casesOf(d)) {
            const body: Json = {
              ...(c.filter ? { [c.filter]: valueOf(c.filter) } : {}),
              ...(c.sort ? { sqlQuerySorter: { field: c.sort[0], order: c.sort[1] === 'ASC' ? 'ascend' : 'descend' } } : {}),
            };
            const [sql, params] = await rowsStatement(t, r, body);
            const scan = keyScan(await t.dataSource.query(`ANALYZE ${sql}`, params));
            const read = Number(scan.r_rows);
            const ordered = indexOrdered(d, c);
            plans.push({
              case: c.name,
              scansTheTenant: ['ALL', 'index'].includes(String(scan.type)) || read > TENANT_ROWS / 10,
              ...(ordered ? { sorted: /Using filesort/.test(String(scan.Extra)), readsMoreThanAPage: read > 2 * PAGE_SIZE } : {}),
            });
          }
          const expected = plans.map((p) => ({
            case: p.case,
            scansTheTenant: false,
            ...('sorted' in p ? { sorted: false, readsMoreThanAPage: false } : {}),
          }));
          expect(plans).toEqual(expected);
        },
        budget(240_000),
      );
    });
  },
);
