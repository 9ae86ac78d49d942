/**
 * Live counts and deep pages against the real database of the leg (in-memory SQLite, or a fresh MySQL/MariaDB
 * database when DB_URL is set): the triggers keep each tenant's live rows counted through every kind of write,
 * starting from the rows present when they are created; a page read by its keys, from either end, is the page
 * the plain OFFSET query gives, ties included.
 */
import { Column, DataSource, Entity, PrimaryColumn } from 'typeorm';
import { createTestDatabase, fixtureDataSource, TestDatabase } from '../../../../../test/support/database';
import { BaseRecord } from '../../persistence/base-record';
import { LIVE } from '../../persistence/columns';
import { createLiveCountTriggers } from '../../persistence/live-count-sql';
import { isMysqlFamily } from '../../persistence/upsert-sql';
import { TenantScope } from '../../tenancy/tenant-scope';
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
}

let database: TestDatabase;
let dataSource: DataSource;
let table: LiveRecordTable<Counted>;
const t1 = TenantScope.system('fixture tenant one', 'lc-1', 'sys-1');
const t2 = TenantScope.system('fixture tenant two', 'lc-2', 'sys-2');
const row = (i: number) => ({
  countedId: `c${String(i).padStart(3, '0')}`,
  kind: i % 4 === 0 ? 'a' : 'b',
  rank: i % 5 === 0 ? null : i % 3,
});

/** What the rows say: the live rows of the tenant, read one by one. */
const rowCount = async (scope: TenantScope) => Number((await table.count(scope)) ?? 0);

beforeAll(async () => {
  database = await createTestDatabase();
  dataSource = await fixtureDataSource(database, [Counted, LiveCount]);
  table = new LiveRecordTable(Counted, 'countedId', dataSource);
  // rows written before the counts exist: the triggers' creation counts them
  await table.insertRecords(
    t1,
    Array.from({ length: 30 }, (_, i) => row(i)),
  );
  await table.softDelete(t1, { countedId: 'c000' });
  if (isMysqlFamily(dataSource)) {
    const runner = dataSource.createQueryRunner();
    await createLiveCountTriggers(runner, 'fixture_counted');
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
