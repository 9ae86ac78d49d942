/**
 * Live counts and deep pages against the real database of the leg (in-memory SQLite, or a fresh MySQL/MariaDB
 * database when DB_URL is set): the triggers keep each tenant's live rows counted, in all and per value of each
 * counted filter column, through every kind of write, starting from the rows present when they are created; a page
 * read by its keys, from either end, is the page the plain OFFSET query gives, ties included.
 */
import { Column, DataSource, Entity, In, MoreThanOrEqual, PrimaryColumn } from 'typeorm';
import { createTestDatabase, fixtureDataSource, TestDatabase } from '../../../../../test/support/database';
import { BaseRecord } from '../../persistence/base-record';
import { LIVE } from '../../persistence/columns';
import { createLiveCountTriggers, LIVE_COUNT_SLOTS, liveCountTriggers, MYSQL_COUNT_SLOT } from '../../persistence/live-count-sql';
import { createDeletedCountTriggers, deletedCountTriggers } from '../../persistence/deleted-count-sql';
import { replaceCountTriggers } from '../../persistence/count-trigger-replacement';
import { DeletedCount } from './deleted-count.entity';
import { DeletedRecordTable } from './deleted-record-table';
import { isMysqlFamily } from '../../persistence/upsert-sql';
import { TenantScope } from '../../tenancy/tenant-scope';
import { FilterCount } from './filter-count.entity';
import { declareFilterCounts } from './filter-counts';
import { LiveCount } from './live-count.entity';
import { LiveRecordTable } from './live-record-table';
import { pageWindow, SortOrder } from './page-window';
import { TenantFilter } from './tenant-table';

@Entity('fixture_counted')
class Counted extends BaseRecord {
  @PrimaryColumn({ type: 'varchar', length: 32 })
  countedId: string;

  @Column({ type: 'varchar', length: 16 })
  kind: string;

  @Column({ type: 'int', nullable: true })
  rank: number | null;

  @Column({ type: 'boolean', default: false })
  flagged: boolean;

  /** A filter too long for the counts' key: its matches are counted. */
  @Column({ type: 'varchar', length: 300, nullable: true })
  note: string | null;
}

/** The filter columns the triggers count, as a migration lists them (note is not one: too long). */
const COUNTED = ['kind', 'rank', 'flagged'];
declareFilterCounts({ entity: Counted, filters: [...COUNTED, 'note'] });

let database: TestDatabase;
let dataSource: DataSource;
let table: LiveRecordTable<Counted>;
const t1 = TenantScope.system('fixture tenant one', 'lc-1', 'sys-1');
const t2 = TenantScope.system('fixture tenant two', 'lc-2', 'sys-2');
const row = (i: number) => ({
  countedId: `c${String(i).padStart(3, '0')}`,
  kind: i % 4 === 0 ? 'a' : 'b',
  rank: i % 5 === 0 ? null : i % 3,
  flagged: i % 2 === 0,
  note: `n${i % 3}`,
});

/** What the rows say: the live rows of the tenant, read one by one. */
const rowCount = async (scope: TenantScope) => Number((await table.count(scope)) ?? 0);

type Tally = Record<string, number>;

/** Every tenant's live rows per value of each counted column, as `<tenant> <column>=<value as text>`: from the rows. */
async function rowsByValue(): Promise<Tally> {
  const tally: Tally = {};
  for (const column of COUNTED) {
    const name = dataSource.driver.escape(column);
    const rows = (await dataSource.query(
      `SELECT tenant_id AS tenant, ${name} AS value, COUNT(1) AS n FROM fixture_counted WHERE delete_time = ${LIVE} AND ${name} IS NOT NULL GROUP BY tenant_id, ${name}`,
    )) as { tenant: string; value: string | number; n: string | number }[];
    for (const row of rows) tally[`${row.tenant} ${column}=${String(row.value)}`] = Number(row.n);
  }
  return tally;
}

/** The same from the filter counts (values with no live row left are absent from both). */
async function filterCountsByValue(): Promise<Tally> {
  const rows = (await dataSource.query(
    `SELECT tenant_id AS tenant, field, value, SUM(live) AS n FROM filter_count WHERE table_name = 'fixture_counted' GROUP BY tenant_id, field, value HAVING SUM(live) <> 0`,
  )) as { tenant: string; field: string; value: string; n: string | number }[];
  return Object.fromEntries(rows.map((row) => [`${row.tenant} ${row.field}=${row.value}`, Number(row.n)]));
}

/** Filters of one counted value each, present or not, as a client gives them. */
const ONE_VALUE_FILTERS: TenantFilter<Counted>[] = [
  ...['a', 'b', 'c', 'q', 'z', 'absent'].map((kind) => ({ kind })),
  ...[0, 1, 2, 7, 99].map((rank) => ({ rank })),
  { flagged: true },
  { flagged: false },
];

/** The filter counts agree with the rows, in the table and as a single-filter count reads them for each tenant. */
async function expectFilterCountsOfRows(scopes: TenantScope[]): Promise<void> {
  expect(await filterCountsByValue()).toEqual(await rowsByValue());
  for (const scope of scopes)
    for (const filter of ONE_VALUE_FILTERS)
      expect([scope.tenantId, filter, await table.countByFilterCount(scope, filter)]).toEqual([
        scope.tenantId,
        filter,
        await table.count(scope, filter),
      ]);
}

beforeAll(async () => {
  database = await createTestDatabase();
  dataSource = await fixtureDataSource(database, [Counted, LiveCount, FilterCount, DeletedCount]);
  table = new LiveRecordTable(Counted, 'countedId', dataSource);
  // rows written before the counts exist: the triggers' creation counts them
  await table.insertRecords(
    t1,
    Array.from({ length: 30 }, (_, i) => row(i)),
  );
  await table.softDelete(t1, { countedId: 'c000' });
  if (isMysqlFamily(dataSource)) {
    const runner = dataSource.createQueryRunner();
    await createLiveCountTriggers(runner, 'fixture_counted', COUNTED);
    await createDeletedCountTriggers(runner, 'fixture_counted');
    await runner.release();
  }
});

afterAll(async () => {
  await dataSource?.destroy();
  await database?.drop();
});

describe('live counts', () => {
  it('start from the live rows present when the triggers are created', async () => {
    expect(await table.countLive(t1)).toBe(29);
    expect(await table.countLive(t2)).toBe(0);
    await expectFilterCountsOfRows([t1, t2]);
  });

  it('follow inserts, logical deletions, restores, upserts, ignored inserts and removals, per tenant', async () => {
    const check = async () => {
      for (const scope of [t1, t2]) expect(await table.countLive(scope)).toBe(await rowCount(scope));
    };
    await table.insertRecords(
      t2,
      Array.from({ length: 7 }, (_, i) => row(100 + i)),
    );
    await check();
    expect(await table.softDelete(t2, { kind: 'a' })).toBeGreaterThan(0);
    await check();
    await dataSource.query(`UPDATE fixture_counted SET delete_time = ${LIVE} WHERE tenant_id = ? AND counted_id = ?`, [
      t2.tenantId,
      'c100',
    ]);
    await check();
    await table.updateRecordsById(t1, [{ countedId: 'c001', kind: 'z' }]);
    await table.insertRowsIfAbsent(t1, [
      { ...row(2), revision: 1, createdUsername: 'x', createdTime: 1, lastModifiedUsername: 'x', lastModifiedTime: 1, deleteTime: null },
    ]);
    await check();
    await table.deleteRows(t1, { kind: 'b' });
    await dataSource.query('DELETE FROM fixture_counted WHERE tenant_id = ? AND delete_time <> 0', [t2.tenantId]);
    await check();
    expect(await table.countLive(t1)).toBeGreaterThan(0);
  });

  it('are what an unfiltered count answers, without reading the rows', async () => {
    // a slot no connection uses, added behind the triggers' back: the count shows it
    const other = ['fixture_counted', t1.tenantId, 99];
    await dataSource.query('INSERT INTO live_count (table_name, tenant_id, slot, live) VALUES (?, ?, ?, 1000)', other);
    try {
      expect(await table.countLive(t1)).toBe((await rowCount(t1)) + 1000);
    } finally {
      await dataSource.query('DELETE FROM live_count WHERE table_name = ? AND tenant_id = ? AND slot = ?', other);
    }
  });
});

describe('deleted counts', () => {
  const t5 = TenantScope.system('fixture tenant five', 'lc-5', 'sys-6');
  const t6 = TenantScope.system('fixture tenant six', 'lc-6', 'sys-7');
  let bin: DeletedRecordTable<Counted>;
  /** What the rows say: the tenant's logically deleted rows. */
  const deletedRows = async (scope: TenantScope) =>
    Number(
      (
        (await dataSource.query(`SELECT COUNT(1) AS n FROM fixture_counted WHERE tenant_id = ? AND delete_time <> ${LIVE}`, [
          scope.tenantId,
        ])) as { n: string | number }[]
      )[0].n,
    );
  const check = async () => {
    for (const scope of [t1, t5, t6])
      expect([scope.tenantId, await bin.countDeleted(scope, dataSource.manager)]).toEqual([scope.tenantId, await deletedRows(scope)]);
  };
  beforeAll(() => {
    bin = new DeletedRecordTable(Counted, 'countedId', dataSource);
  });

  it('start from the deleted rows present, and follow deletions, restores, purges, tenant moves and removals', async () => {
    expect(await bin.countDeleted(t1, dataSource.manager)).toBe(1);
    await table.insertRecords(
      t5,
      Array.from({ length: 12 }, (_, i) => row(300 + i)),
    );
    await check();
    expect(await table.softDelete(t5, { kind: 'b' })).toBeGreaterThan(0);
    await check();
    expect(await bin.restore(t5, 'c301')).toBe(true);
    expect(await bin.restore(t5, 'c301')).toBe(false);
    expect(await bin.restore(t5, 'c300')).toBe(false); // live (kind a): out of the bin's reach
    await check();
    expect(await bin.purge(t5, ['c302', 'c303', 'c300'])).toBe(2);
    expect(await table.count(t5, { countedId: 'c300' } as TenantFilter<Counted>)).toBe(1);
    await check();
    // a deleted row's other columns changed: no count moves; moved to another tenant: both move
    await dataSource.query(`UPDATE fixture_counted SET kind = 'z' WHERE tenant_id = ? AND delete_time <> ${LIVE}`, [t5.tenantId]);
    await dataSource.query(`UPDATE fixture_counted SET tenant_id = ? WHERE tenant_id = ? AND counted_id IN ('c305', 'c304')`, [
      t6.tenantId,
      t5.tenantId,
    ]);
    await check();
    await dataSource.query(`DELETE FROM fixture_counted WHERE tenant_id = ?`, [t6.tenantId]);
    await check();
    expect(await bin.countDeleted(t5, dataSource.manager)).toBeGreaterThan(0);
  });

  it('are what the recycle bin total answers, without reading the rows', async () => {
    // a slot no connection uses, added behind the triggers' back: the count shows it
    const other = ['fixture_counted', t5.tenantId, 99];
    await dataSource.query('INSERT INTO deleted_count (table_name, tenant_id, slot, deleted) VALUES (?, ?, ?, 1000)', other);
    try {
      expect(await bin.countDeleted(t5, dataSource.manager)).toBe((await deletedRows(t5)) + 1000);
    } finally {
      await dataSource.query('DELETE FROM deleted_count WHERE table_name = ? AND tenant_id = ? AND slot = ?', other);
    }
  });
});

describe('filter counts', () => {
  const t3 = TenantScope.system('fixture tenant three', 'lc-3', 'sys-4');
  const t4 = TenantScope.system('fixture tenant four', 'lc-4', 'sys-5');
  const moveToT4 = (where: string) =>
    dataSource.query(`UPDATE fixture_counted SET tenant_id = ? WHERE tenant_id = ? AND ${where}`, [t4.tenantId, t3.tenantId]);

  it('follow inserts, value changes, logical deletions, restores, tenant moves and removals, per tenant and value', async () => {
    const check = () => expectFilterCountsOfRows([t3, t4]);
    await table.insertRecords(
      t3,
      Array.from({ length: 20 }, (_, i) => row(200 + i)),
    );
    await check();
    // by identifier (an upsert on MySQL/MariaDB): a value changed, set to null, set from null
    await table.updateRecordsById(t3, [{ countedId: 'c200', kind: 'q', rank: null }]);
    await table.updateRecordsById(t3, [{ countedId: 'c205', kind: 'a', rank: 7, flagged: true }]);
    await table.updateRecords(t3, { kind: 'b' }, { kind: 'c' });
    await check();
    expect(await table.softDelete(t3, { rank: 1 })).toBeGreaterThan(0);
    await check();
    await dataSource.query(`UPDATE fixture_counted SET delete_time = ${LIVE} WHERE tenant_id = ? AND counted_id = ?`, [
      t3.tenantId,
      'c201',
    ]);
    // a deleted row's value changed: no live count moves
    await dataSource.query(`UPDATE fixture_counted SET kind = 'z' WHERE tenant_id = ? AND delete_time <> ${LIVE}`, [t3.tenantId]);
    await check();
    await moveToT4(`counted_id IN ('c202', 'c203')`);
    // moved and its value changed in one update
    await dataSource.query(`UPDATE fixture_counted SET tenant_id = ?, kind = 'q' WHERE counted_id = 'c204' AND tenant_id = ?`, [
      t4.tenantId,
      t3.tenantId,
    ]);
    // an insert ignored for its existing identifier counts nothing
    await table.insertRowsIfAbsent(t3, [
      {
        ...row(206),
        kind: 'a',
        revision: 1,
        createdUsername: 'x',
        createdTime: 1,
        lastModifiedUsername: 'x',
        lastModifiedTime: 1,
        deleteTime: LIVE,
      },
    ]);
    await check();
    await table.deleteRows(t3, { kind: 'c' });
    await dataSource.query(`DELETE FROM fixture_counted WHERE tenant_id = ? AND delete_time <> ${LIVE}`, [t3.tenantId]);
    await check();
    expect(await table.countByFilterCount(t4, { kind: 'q' })).toBeGreaterThan(0);
  });

  it('answer one exact value of a counted column only: other filters, types and columns count the rows', async () => {
    expect(await table.countByFilterCount(t3, { note: 'n1' })).toBeUndefined();
    expect(await table.countByFilterCount(t3, { kind: 'a', rank: 1 })).toBeUndefined();
    expect(await table.countByFilterCount(t3, { rank: MoreThanOrEqual(1) })).toBeUndefined();
    // a text for a number column: the database would convert it ('01' = 1), the counts cannot
    expect(await table.countByFilterCount(t3, { rank: '1' as never })).toBeUndefined();
    expect(await table.countByFilterCount(t3, {})).toBeUndefined();
  });

  it('are what a single-filter count answers, without reading the rows', async () => {
    // a slot no connection uses, added behind the triggers' back: the count shows it
    const other = ['fixture_counted', t4.tenantId, 'kind', 'q', 99];
    await dataSource.query(
      'INSERT INTO filter_count (table_name, tenant_id, field, value, slot, live) VALUES (?, ?, ?, ?, ?, 1000)',
      other,
    );
    try {
      expect(await table.countByFilterCount(t4, { kind: 'q' })).toBe((await table.count(t4, { kind: 'q' })) + 1000);
    } finally {
      await dataSource.query(
        'DELETE FROM filter_count WHERE table_name = ? AND tenant_id = ? AND field = ? AND value = ? AND slot = ?',
        other,
      );
    }
  });
});

describe('a page read by its keys from the nearer end', () => {
  const scope = TenantScope.system('fixture paging', 'lc-pages', 'sys-3');
  const orders: SortOrder[] = [
    { rank: 'ASC', countedId: 'ASC' },
    { rank: 'DESC', countedId: 'DESC' },
    { kind: 'ASC', rank: 'DESC', countedId: 'DESC' },
    { countedId: 'ASC' },
  ];
  const filters: TenantFilter<Counted>[] = [{}, { kind: 'b' }];

  beforeAll(async () => {
    await table.insertRecords(
      scope,
      Array.from({ length: 23 }, (_, i) => row(i)),
    );
  });

  it.each(orders.map((order) => [JSON.stringify(order), order]))(
    'is the OFFSET page at every offset and size, order %s',
    async (_, order) => {
      for (const filter of filters) {
        const total = await table.count(scope, filter);
        for (const pageSize of [1, 5, total + 3]) {
          for (let offset = 0; offset <= total + pageSize; offset += 1) {
            const plain = await table.find(scope, filter, { order: order as never, skip: offset, take: pageSize });
            const window = pageWindow(offset, pageSize, total);
            const paged = window ? await table.findPage(scope, filter, order, window) : [];
            expect([offset, pageSize, paged.map((r) => r.countedId)]).toEqual([offset, pageSize, plain.map((r) => r.countedId)]);
          }
        }
      }
    },
  );

  it('reads the last pages from the end and the first ones from the start', () => {
    expect(pageWindow(0, 10, 95)).toEqual({ skip: 0, take: 10, reversed: false });
    expect(pageWindow(40, 10, 95)).toEqual({ skip: 40, take: 10, reversed: false });
    expect(pageWindow(50, 10, 95)).toEqual({ skip: 35, take: 10, reversed: true });
    expect(pageWindow(90, 10, 95)).toEqual({ skip: 0, take: 5, reversed: true });
    expect(pageWindow(95, 10, 95)).toBeUndefined();
  });
});

/** The recycle bin's count of the tenant, and its deleted rows. */
const deletedOf = async (scope: TenantScope) =>
  Number(
    (
      (await dataSource.query('SELECT SUM(deleted) AS n FROM deleted_count WHERE table_name = ? AND tenant_id = ?', [
        'fixture_counted',
        scope.tenantId,
      ])) as {
        n: string | number | null;
      }[]
    )[0].n ?? 0,
  );
const deletedRowsOf = async (scope: TenantScope) =>
  Number(
    (
      (await dataSource.query(`SELECT COUNT(1) AS n FROM fixture_counted WHERE tenant_id = ? AND delete_time <> ${LIVE}`, [
        scope.tenantId,
      ])) as {
        n: string | number;
      }[]
    )[0].n,
  );

describe('count triggers replaced (MySQL/MariaDB)', () => {
  const t7 = TenantScope.system('fixture tenant seven', 'lc-7', 'sys-8');
  const triggerTexts = async () =>
    (
      (await dataSource.query(
        `SELECT ACTION_STATEMENT AS statement FROM information_schema.TRIGGERS WHERE TRIGGER_SCHEMA = DATABASE() AND EVENT_OBJECT_TABLE = 'fixture_counted'`,
      )) as { statement: string }[]
    ).map((row) => row.statement);
  it("keep every count right when the triggers' slot changes under them, and add to the server's own slots", async () => {
    if (!isMysqlFamily(dataSource)) return;
    const runner = dataSource.createQueryRunner();
    try {
      // the earlier form: the slot by connection alone
      for (const sql of [...liveCountTriggers('mysql', 'fixture_counted', COUNTED), ...deletedCountTriggers('mysql', 'fixture_counted')])
        await runner.query(
          sql.replace('CREATE TRIGGER', 'CREATE OR REPLACE TRIGGER').split(MYSQL_COUNT_SLOT).join(`CONNECTION_ID() % ${LIVE_COUNT_SLOTS}`),
        );
      expect((await triggerTexts()).some((text) => text.includes('@@server_id'))).toBe(false);
      await table.insertRecords(
        t7,
        Array.from({ length: 12 }, (_, i) => ({ ...row(i), countedId: `r${i}` })),
      );
      await table.softDelete(t7, { countedId: In(['r1', 'r2', 'r3']) } as TenantFilter<Counted>);
      await replaceCountTriggers(runner, 'fixture_counted');
      const texts = await triggerTexts();
      expect(texts.length).toBe(6);
      expect(texts.every((text) => text.includes('@@server_id'))).toBe(true);
      await table.insertRecords(
        t7,
        Array.from({ length: 5 }, (_, i) => ({ ...row(i), countedId: `s${i}` })),
      );
      await table.softDelete(t7, { countedId: In(['r4', 's1']) } as TenantFilter<Counted>);
      expect(await table.countLive(t7)).toBe(12);
      expect(await rowCount(t7)).toBe(12);
      expect(await deletedOf(t7)).toBe(await deletedRowsOf(t7));
      await expectFilterCountsOfRows([t7]);
    } finally {
      await runner.release();
    }
  });
});

describe('count triggers made while writers go on (MySQL/MariaDB)', () => {
  const writing = [
    TenantScope.system('fixture tenant ten', 'lc-10', 'sys-10'),
    TenantScope.system('fixture tenant eleven', 'lc-11', 'sys-11'),
  ];
  const WRITERS = 4;
  const ROWS = 5_000;

  /**
   * One writer's steps until `stop`, each changing what a count holds: inserts of new rows, logical deletions, restores
   * into either tenant, value changes and removals of its own rows.
   */
  async function writer(w: number, stop: { now: boolean }, errors: string[]): Promise<void> {
    const [scope, other] = w % 2 ? writing : [writing[1], writing[0]];
    const own = (i: number) => `w${w}-${i}`;
    for (let i = 0; !stop.now; i++) {
      try {
        const step = i % 5;
        if (step === 0 || step === 2) await table.insertRecords(scope, [{ ...row(i), countedId: own(i) }]);
        else if (step === 1) await table.softDelete(scope, { countedId: own(i - 1) });
        else if (step === 3)
          await dataSource.query(`UPDATE fixture_counted SET delete_time = ${LIVE}, tenant_id = ?, kind = ? WHERE counted_id = ?`, [
            (i % 3 ? scope : other).tenantId,
            i % 2 ? 'q' : 'a',
            own(i - 2),
          ]);
        else await table.deleteRows(scope, { countedId: own(i - 4) });
      } catch (error) {
        errors.push(`${i % 5} ${(error as Error).message}`);
      }
    }
  }

  it('count every row once: the triggers first, then each count caught up with the rows in one read view, no table locked', async () => {
    if (!isMysqlFamily(dataSource)) return;
    for (const scope of writing)
      await table.insertRecords(
        scope,
        Array.from({ length: ROWS }, (_, i) => row(i)),
      );
    const runner = dataSource.createQueryRunner();
    const errors: string[] = [];
    try {
      // the first creation on a table that writers keep writing, three times over, each time with its counts wrong
      for (let round = 0; round < 3; round++) {
        const triggers = (await runner.query(
          `SELECT TRIGGER_NAME AS name FROM information_schema.TRIGGERS WHERE TRIGGER_SCHEMA = DATABASE() AND EVENT_OBJECT_TABLE = 'fixture_counted'`,
        )) as { name: string }[];
        for (const { name } of triggers) await runner.query(`DROP TRIGGER \`${name}\``);
        await runner.query(`UPDATE live_count SET live = live + 5 WHERE table_name = 'fixture_counted'`);
        await runner.query(`UPDATE filter_count SET live = live - 3 WHERE table_name = 'fixture_counted'`);
        const stop = { now: false };
        const writers = Array.from({ length: WRITERS }, (_, w) => writer(w + WRITERS * round, stop, errors));
        try {
          await new Promise((resolve) => setTimeout(resolve, 50));
          await createLiveCountTriggers(runner, 'fixture_counted', COUNTED);
          await createDeletedCountTriggers(runner, 'fixture_counted');
          await new Promise((resolve) => setTimeout(resolve, 100));
        } finally {
          stop.now = true;
          await Promise.all(writers);
        }
      }
    } finally {
      await runner.release();
    }
    expect(errors).toEqual([]);
    for (const scope of writing) {
      expect([scope.tenantId, await table.countLive(scope)]).toEqual([scope.tenantId, await rowCount(scope)]);
      expect([scope.tenantId, await deletedOf(scope)]).toEqual([scope.tenantId, await deletedRowsOf(scope)]);
    }
    await expectFilterCountsOfRows(writing);
  }, 60_000);
});
