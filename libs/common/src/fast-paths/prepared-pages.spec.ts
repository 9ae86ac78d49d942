/**
 * A first page by a statement built once per shape (PreparedFinds.findPage) is what LiveRecordTable.findPage's
 * query builder reads, on the leg's database (in-memory SQLite, or a fresh MySQL/MariaDB database when DB_URL
 * is set): the same rows in the same order (ties broken by the identifier), transformed columns read back,
 * hidden columns left out; other conditions and later windows take the builder's way.
 */
import {
  Between,
  Column,
  DataSource,
  Entity,
  FindOptionsWhere,
  In,
  IsNull,
  LessThanOrEqual,
  MoreThanOrEqual,
  PrimaryColumn,
} from 'typeorm';
import { createTestDatabase, fixtureDataSource, TestDatabase, usingMysql } from '../../../../test/support/database';
import { deferredJoin } from '../crud/tables/deferred-join';
import { LiveRecordTable } from '../crud/tables/live-record-table';
import { PageWindow, SortOrder } from '../crud/tables/page-window';
import { BaseRecord } from '../persistence/base-record';
import { commaList, epochMillis, LIVE } from '../persistence/columns';
import { TenantScope } from '../tenancy/tenant-scope';
import { PreparedFinds } from './prepared-finds';

@Entity('fixture_crate')
class Crate extends BaseRecord {
  @PrimaryColumn({ type: 'varchar', length: 32 })
  crateId: string;

  @Column({ type: 'varchar', length: 32, nullable: true })
  courier: string | null;

  @Column({ type: 'bigint', transformer: epochMillis })
  sentTime: number;

  @Column({ type: 'text', transformer: commaList })
  labels: string[];

  @Column({ type: 'varchar', length: 64, select: false })
  secretCode: string;
}

const T0 = 1_700_000_000_000;
const t1 = TenantScope.system('prepared pages', 'pp-1', 'tester');
const t2 = TenantScope.system('prepared pages', 'pp-2', 'tester');
/** Couriers and times repeat, so orders tie and the identifier decides. */
const crate = (i: number) => ({
  crateId: `c${String(i).padStart(2, '0')}`,
  courier: [null, 'dhl', 'ups'][i % 3],
  sentTime: T0 + (i % 4) * 1000,
  labels: i % 2 ? ['fragile', `n${i}`] : [],
  secretCode: `code-${i}`,
});

let database: TestDatabase;
let dataSource: DataSource;
let finds: PreparedFinds<Crate>;
let table: LiveRecordTable<Crate>;

beforeAll(async () => {
  database = await createTestDatabase();
  dataSource = await fixtureDataSource(database, [Crate]);
  table = new LiveRecordTable(Crate, 'crateId', dataSource);
  await table.insertRecords(
    t1,
    Array.from({ length: 20 }, (_, i) => crate(i)),
  );
  await table.insertRecords(
    t2,
    Array.from({ length: 5 }, (_, i) => crate(i)),
  );
  await table.softDelete(t1, { crateId: In(['c01', 'c04']) });
  finds = new PreparedFinds(dataSource.getMetadata(Crate));
});

afterAll(async () => {
  await dataSource?.destroy();
  await database?.drop();
});

const live = (scope: TenantScope, filter: FindOptionsWhere<Crate> = {}) =>
  ({ ...filter, tenantId: scope.tenantId, deleteTime: LIVE }) as FindOptionsWhere<Crate>;
const first = (take: number): PageWindow => ({ skip: 0, take, reversed: false });
const ids = (rows: Crate[] | undefined) => rows?.map((row) => row.crateId);

/** The prepared page and the query builder's, side by side. */
async function both(where: FindOptionsWhere<Crate>, order: SortOrder, take: number) {
  const prepared = await finds.findPage(dataSource.manager, where, order, first(take), 'crateId');
  const built = await deferredJoin(dataSource.manager, Crate, where, 'crateId', order, first(take)).getMany();
  return { prepared, built };
}

describe('PreparedFinds.findPage', () => {
  it.each<[string, FindOptionsWhere<Crate>, SortOrder, number]>([
    ['by equality', live(t1, { courier: 'dhl' }), { sentTime: 'DESC', crateId: 'DESC' }, 3],
    ['the same shape with other values', live(t2, { courier: 'ups' }), { sentTime: 'DESC', crateId: 'DESC' }, 3],
    ['IS NULL', live(t1, { courier: IsNull() }), { crateId: 'ASC' }, 4],
    ['between two times', live(t1, { sentTime: Between(T0 + 1000, T0 + 2000) }), { sentTime: 'ASC', crateId: 'ASC' }, 5],
    ['at or after a time', live(t1, { sentTime: MoreThanOrEqual(T0 + 2000) }), { sentTime: 'DESC', crateId: 'DESC' }, 4],
    ['at or before a time, with equality', live(t1, { courier: 'ups', sentTime: LessThanOrEqual(T0 + 1000) }), { crateId: 'DESC' }, 10],
    [
      'mixed directions, ties by the identifier',
      live(t1, { sentTime: MoreThanOrEqual(T0) }),
      { courier: 'ASC', sentTime: 'DESC', crateId: 'ASC' },
      9,
    ],
    ['more asked than match', live(t1, { courier: 'dhl' }), { sentTime: 'ASC', crateId: 'ASC' }, 50],
    ['no match', live(t2, { courier: 'fedex' }), { crateId: 'ASC' }, 5],
  ])('%s: what the query builder reads', async (_name, where, order, take) => {
    const { prepared, built } = await both(where, order, take);
    expect(prepared).toEqual(built);
    expect(prepared?.every((row) => row instanceof Crate)).toBe(true);
    expect(ids(prepared)).toEqual(ids(built));
  });

  it('reads transformed columns back and leaves hidden columns out', async () => {
    const [row] = (await finds.findPage(dataSource.manager, live(t1, { courier: 'dhl' }), { crateId: 'DESC' }, first(1), 'crateId'))!;
    expect(row).toMatchObject({ crateId: 'c19', courier: 'dhl', sentTime: T0 + 3000, labels: ['fragile', 'n19'], deleteTime: null });
    expect(row.secretCode).toBeUndefined();
  });

  it("runs the builder's deferred join: the keys ordered and limited inside, the rows ordered again outside", async () => {
    // inside a transaction the statement goes as text: on MySQL/MariaDB on the transaction's own connection
    // (pooled-statement.ts), on SQLite through TypeORM's query; a spy on either sees it
    const sql = await dataSource.transaction(async (manager) => {
      const held = (manager.queryRunner as unknown as { databaseConnection: { query: (sql: string) => unknown } }).databaseConnection;
      const query = usingMysql() ? jest.spyOn(held, 'query') : jest.spyOn(manager, 'query');
      await finds.findPage(manager, live(t1, { courier: 'dhl' }), { sentTime: 'ASC', crateId: 'ASC' }, first(3), 'crateId');
      return query.mock.calls[0][0] as string;
    });
    expect(sql).toMatch(/INNER JOIN \(SELECT .* ORDER BY .* LIMIT 3\b.*\) \S+ ON .* ORDER BY [^)]*sent_time\S* ASC, [^)]*crate_id\S* ASC$/);
  });

  it('builds a shape once (conditions, order and size), and binds each call its own values', async () => {
    const build = jest.spyOn(dataSource.manager, 'createQueryBuilder');
    const page = (scope: TenantScope, courier: string, take: number) =>
      finds.findPage(dataSource.manager, live(scope, { courier }), { sentTime: 'ASC', crateId: 'DESC' }, first(take), 'crateId');
    const firstIds = ids(await page(t1, 'ups', 2));
    const sameShape = build.mock.calls.length;
    const otherIds = ids(await page(t2, 'dhl', 2));
    const afterSameShape = build.mock.calls.length;
    await page(t1, 'ups', 3);
    const afterOtherSize = build.mock.calls.length;
    build.mockRestore();
    expect([sameShape, afterSameShape, afterOtherSize]).toEqual([2, 2, 4]);
    expect([firstIds, otherIds]).toEqual([
      ['c08', 'c17'],
      ['c04', 'c01'],
    ]);
  });

  it('leaves other conditions and later windows to the query builder', () => {
    const order: SortOrder = { crateId: 'ASC' };
    expect(finds.findPage(dataSource.manager, live(t1, { courier: In(['dhl']) }), order, first(3), 'crateId')).toBeUndefined();
    expect(finds.findPage(dataSource.manager, live(t1), order, { skip: 3, take: 3, reversed: false }, 'crateId')).toBeUndefined();
    expect(finds.findPage(dataSource.manager, live(t1), order, { skip: 0, take: 3, reversed: true }, 'crateId')).toBeUndefined();
  });
});

describe('LiveRecordTable.findPage', () => {
  const order: SortOrder = { sentTime: 'DESC', crateId: 'DESC' };
  const windows: PageWindow[] = [first(4), { skip: 4, take: 4, reversed: false }, { skip: 0, take: 3, reversed: true }];
  const filters = [{ courier: 'dhl' }, { sentTime: Between(T0, T0 + 2000) }, { courier: In(['ups', 'dhl']) }];

  /** Every filter's windows through a new table; which were prepared. */
  async function pages() {
    const prepared = jest.spyOn(PreparedFinds.prototype, 'findPage');
    const read: (string[] | undefined)[] = [];
    try {
      const fresh = new LiveRecordTable(Crate, 'crateId', dataSource);
      for (const filter of filters) for (const window of windows) read.push(ids(await fresh.findPage(t1, filter, order, window)));
      return { read, prepared: prepared.mock.results.map((result) => result.value !== undefined) };
    } finally {
      prepared.mockRestore();
    }
  }

  it('reads first windows prepared, the rest by the query builder, the rows of a plain find', async () => {
    const expected: (string[] | undefined)[] = [];
    for (const filter of filters)
      for (const window of windows) {
        const plain = await dataSource
          .getRepository(Crate)
          .find({ where: live(t1, filter), order, skip: window.reversed ? 0 : window.skip, take: 100 });
        expected.push(ids(window.reversed ? plain.slice(-window.take) : plain.slice(0, window.take)));
      }
    const on = await pages();
    expect(on.read).toEqual(expected);
    expect(on.prepared).toEqual([true, false, false, true, false, false, false, false, false]);
  });
});
