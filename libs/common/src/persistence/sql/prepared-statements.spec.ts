/**
 * The tables' finds, counts and updates do exactly what the repository's and the query builder's do, on the leg's
 * database (in-memory SQLite, or a fresh MySQL/MariaDB database when DB_URL is set): each call's own values, column
 * transformers applied both ways, selected and hidden columns, order, offset and limit, IS NULL and ranges by a
 * statement built once per shape, other conditions and SQL expressions by one built for the call.
 */
import {
  AfterLoad,
  Between,
  Column,
  DataSource,
  Entity,
  FindOptionsWhere,
  In,
  IsNull,
  LessThanOrEqual,
  Like,
  MoreThanOrEqual,
  PrimaryColumn,
} from 'typeorm';
import { createTestDatabase, fixtureDataSource, TestDatabase } from '../../../../../test/support/database';
import { commaList, epochMillis } from '../columns';
import { PreparedFinds } from './prepared-finds';
import { PreparedUpdates } from './prepared-updates';

@Entity('fixture_parcel')
class Parcel {
  @PrimaryColumn({ type: 'varchar', length: 64 })
  tenantId: string;

  @PrimaryColumn({ type: 'varchar', length: 32 })
  parcelId: string;

  @Column({ type: 'varchar', length: 32, nullable: true })
  courier: string | null;

  @Column({ type: 'bigint', transformer: epochMillis })
  sentTime: number;

  @Column({ type: 'text', transformer: commaList })
  labels: string[];

  @Column({ type: 'varchar', length: 64, select: false })
  secretCode: string;
}

/** An entity with a load listener: the tables' reads would not call it. */
@Entity('fixture_noted')
class Noted {
  @PrimaryColumn({ type: 'varchar', length: 64 })
  tenantId: string;

  loaded = false;

  @AfterLoad()
  markLoaded(): void {
    this.loaded = true;
  }
}

let database: TestDatabase;
let dataSource: DataSource;
let finds: PreparedFinds<Parcel>;
let updates: PreparedUpdates<Parcel>;
const parcel = (tenantId: string, parcelId: string, o: Partial<Parcel> = {}): Parcel =>
  Object.assign(new Parcel(), {
    tenantId,
    parcelId,
    courier: 'ups',
    sentTime: 1_700_000_000_000,
    labels: ['a', 'b'],
    secretCode: `code-${parcelId}`,
    ...o,
  });

beforeAll(async () => {
  database = await createTestDatabase();
  dataSource = await fixtureDataSource(database, [Parcel, Noted]);
  await dataSource.manager.insert(Parcel, [
    parcel('t1', 'p1'),
    parcel('t1', 'p2', { courier: null, sentTime: 1_700_000_000_002 }),
    parcel('t1', 'p3', { courier: 'dhl', labels: [] }),
    parcel('t2', 'p1', { courier: 'dhl' }),
  ]);
  finds = new PreparedFinds(dataSource.getMetadata(Parcel));
  updates = new PreparedUpdates(dataSource.getMetadata(Parcel));
});

afterAll(async () => {
  await dataSource?.destroy();
  await database?.drop();
});

/** The prepared find and the repository's, side by side. */
async function both(where: FindOptionsWhere<Parcel>, shape: Parameters<PreparedFinds<Parcel>['find']>[2] = {}) {
  const prepared = await finds.find(dataSource.manager, where, shape);
  const repository = await dataSource.getRepository(Parcel).find({ ...shape, where });
  return { prepared, repository };
}

describe('PreparedFinds', () => {
  it.each<[string, FindOptionsWhere<Parcel>, Parameters<PreparedFinds<Parcel>['find']>[2]]>([
    ['by key', { tenantId: 't1', parcelId: 'p1' }, {}],
    ['the same shape with other values', { tenantId: 't2', parcelId: 'p1' }, {}],
    ['no match', { tenantId: 't3', parcelId: 'p1' }, {}],
    ['by a transformed column', { tenantId: 't1', sentTime: 1_700_000_000_002 }, {}],
    ['IS NULL', { tenantId: 't1', courier: IsNull() }, {}],
    ['ordered and limited', { tenantId: 't1' }, { order: { sentTime: 'DESC', parcelId: 'ASC' }, take: 2 }],
    ['at or after a time', { tenantId: 't1', sentTime: MoreThanOrEqual(1_700_000_000_001) }, {}],
    ['at or before a time', { tenantId: 't1', sentTime: LessThanOrEqual(1_700_000_000_001) }, { order: { parcelId: 'DESC' } }],
    ['between two times', { tenantId: 't1', sentTime: Between(1_700_000_000_000, 1_700_000_000_001) }, { order: { parcelId: 'ASC' } }],
    ['a page past the first', { tenantId: 't1' }, { order: { parcelId: 'ASC' }, skip: 1, take: 1 }],
    ['with a hidden column selected', { tenantId: 't1', parcelId: 'p3' }, { select: { parcelId: true, secretCode: true, labels: true } }],
    ['IN, built for the call', { tenantId: 't1', parcelId: In(['p1', 'p3']) }, { order: { parcelId: 'DESC' } }],
    [
      'LIKE on a transformed column, built for the call',
      { tenantId: 't1', labels: Like('%b%') },
      { select: { parcelId: true, labels: true } },
    ],
  ])('%s: what the repository finds', async (_name, where, shape) => {
    const { prepared, repository } = await both(where, shape);
    expect(prepared).toEqual(repository);
    expect(prepared.every((row) => row instanceof Parcel)).toBe(true);
  });

  it('reads transformed columns back (numbers, lists) and leaves hidden columns out', async () => {
    const [row] = await finds.find(dataSource.manager, { tenantId: 't1', parcelId: 'p3' }, {});
    expect(row).toEqual(
      Object.assign(new Parcel(), { tenantId: 't1', parcelId: 'p3', courier: 'dhl', sentTime: 1_700_000_000_000, labels: [] }),
    );
  });

  it('builds a shape once, and binds each call its own values', async () => {
    const build = jest.spyOn(dataSource.manager, 'createQueryBuilder');
    const shape = { select: { parcelId: true, courier: true } };
    const first = await finds.find(dataSource.manager, { tenantId: 't1', courier: 'dhl' }, shape);
    const second = await finds.find(dataSource.manager, { tenantId: 't2', courier: 'dhl' }, shape);
    const calls = build.mock.calls.length;
    build.mockRestore();
    expect(calls).toBe(1);
    expect(first).toEqual([Object.assign(new Parcel(), { parcelId: 'p3', courier: 'dhl' })]);
    expect(second).toEqual([Object.assign(new Parcel(), { parcelId: 'p1', courier: 'dhl' })]);
  });

  it.each<[string, FindOptionsWhere<Parcel>, number]>([
    ['by tenant', { tenantId: 't1' }, 3],
    ['by tenant and value', { tenantId: 't1', courier: 'dhl' }, 1],
    ['IS NULL', { tenantId: 't1', courier: IsNull() }, 1],
    ['between two times', { tenantId: 't1', sentTime: Between(1_700_000_000_001, 1_700_000_000_002) }, 1],
    ['no match', { tenantId: 't9' }, 0],
    ['IN, built for the call', { tenantId: 't1', parcelId: In(['p1', 'p2', 'p9']) }, 2],
    ['LIKE, built for the call', { tenantId: 't1', courier: Like('d%') }, 1],
  ])('counts %s as the repository does', async (_name, where, expected) => {
    expect(await finds.count(dataSource.manager, where)).toBe(expected);
    expect(await dataSource.getRepository(Parcel).count({ where })).toBe(expected);
  });

  it("binds the same BETWEEN shape with each call's bounds", async () => {
    const between = (from: number, to: number) => finds.count(dataSource.manager, { tenantId: 't1', sentTime: Between(from, to) });
    expect([
      await between(1_700_000_000_000, 1_700_000_000_000),
      await between(1_700_000_000_000, 1_700_000_000_002),
      await between(5, 6),
    ]).toEqual([2, 3, 0]);
  });

  it('builds other conditions for each call, and keeps no statement of theirs', async () => {
    const build = jest.spyOn(dataSource.manager, 'createQueryBuilder');
    const byIn = (ids: string[]) => finds.find(dataSource.manager, { tenantId: 't1', parcelId: In(ids) }, { select: { parcelId: true } });
    const found = [await byIn(['p1']), await byIn(['p2', 'p3'])];
    const calls = build.mock.calls.length;
    build.mockRestore();
    expect(calls).toBe(2);
    expect(found.map((rows) => rows.map((row) => row.parcelId).sort())).toEqual([['p1'], ['p2', 'p3']]);
  });

  it('refuses an entity with load listeners, whose reads it would not call them for', async () => {
    await expect(new PreparedFinds<Noted>(dataSource.getMetadata(Noted)).find(dataSource.manager, { tenantId: 't1' }, {})).rejects.toThrow(
      /no load listeners/,
    );
  });

  it('refuses a selection of anything but plain columns', async () => {
    await expect(finds.find(dataSource.manager, { tenantId: 't1' }, { select: { courier: { x: true } } as never })).rejects.toThrow(
      /plain columns only/,
    );
  });
});

describe('PreparedUpdates', () => {
  const read = async (tenantId: string, parcelId: string) =>
    dataSource
      .getRepository(Parcel)
      .findOne({ where: { tenantId, parcelId }, select: { courier: true, sentTime: true, labels: true, secretCode: true } });

  beforeAll(async () => {
    await dataSource.manager.insert(Parcel, [parcel('u1', 'q1'), parcel('u1', 'q2', { courier: null }), parcel('u2', 'q1')]);
  });

  it("sets each call's values on the matching rows only, through the columns' transformers, and answers how many matched", async () => {
    const set = (tenantId: string, parcelId: string, courier: string | null, labels: string[]) =>
      updates.update(dataSource.manager, { tenantId, parcelId }, { courier, labels, sentTime: 1_800_000_000_000 });
    expect(await set('u1', 'q1', 'fedex', ['x', 'y'])).toBe(1);
    expect(await set('u1', 'q2', null, [])).toBe(1);
    expect(await set('u1', 'q9', 'dhl', ['z'])).toBe(0);
    expect(await read('u1', 'q1')).toMatchObject({ courier: 'fedex', labels: ['x', 'y'], sentTime: 1_800_000_000_000 });
    expect(await read('u1', 'q2')).toMatchObject({ courier: null, labels: [] });
    expect(await read('u2', 'q1')).toMatchObject({ courier: 'ups', labels: ['a', 'b'], sentTime: 1_700_000_000_000 });
  });

  it('updates by IS NULL and ranges, and inside a transaction', async () => {
    expect(await updates.update(dataSource.manager, { tenantId: 'u1', courier: IsNull() }, { secretCode: 'was-null' })).toBe(1);
    await dataSource.transaction(async (manager) => {
      expect(await updates.update(manager, { tenantId: 'u1', sentTime: MoreThanOrEqual(1_800_000_000_000) }, { secretCode: 'late' })).toBe(
        2,
      );
    });
    expect((await read('u1', 'q2'))?.secretCode).toBe('late');
  });

  it('builds a shape once', async () => {
    const build = jest.spyOn(dataSource.manager, 'createQueryBuilder');
    await updates.update(dataSource.manager, { tenantId: 'u2', parcelId: 'q1' }, { secretCode: 'a' });
    await updates.update(dataSource.manager, { tenantId: 'u2', parcelId: 'q1' }, { secretCode: 'b' });
    const calls = build.mock.calls.length;
    build.mockRestore();
    expect(calls).toBe(1);
    expect((await read('u2', 'q1'))?.secretCode).toBe('b');
  });

  it('sets SQL expressions and updates by other conditions by a statement built for the call', async () => {
    const build = jest.spyOn(dataSource.manager, 'createQueryBuilder');
    const later = (by: number) => (() => `sent_time + ${by}`) as never;
    expect(await updates.update(dataSource.manager, { tenantId: 'u1', parcelId: 'q1' }, { sentTime: later(1) })).toBe(1);
    expect(await updates.update(dataSource.manager, { tenantId: 'u1', parcelId: 'q1' }, { sentTime: later(2) })).toBe(1);
    expect(await updates.update(dataSource.manager, { tenantId: 'u1', parcelId: In(['q1', 'q2', 'q9']) }, { courier: 'x' })).toBe(2);
    const calls = build.mock.calls.length;
    build.mockRestore();
    expect(calls).toBe(3);
    expect(await read('u1', 'q1')).toMatchObject({ courier: 'x', sentTime: 1_800_000_000_003 });
    expect(await read('u1', 'q2')).toMatchObject({ courier: 'x' });
  });
});
