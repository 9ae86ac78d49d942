/**
 * The tenant tables' conditional writes and deliberate cross-tenant reads, against the real database of
 * the leg (in-memory SQLite, or a fresh MySQL/MariaDB database when DB_URL is set): a conditional UPDATE
 * answers how many rows it changed, an insert-if-absent skips taken keys, a delete removes only the
 * scope's rows, and a read across tenants needs a named AllTenantsRead and still sees only live records.
 */
import { Column, DataSource, Entity, In, LessThanOrEqual, MoreThanOrEqual, PrimaryColumn, Raw } from 'typeorm';
import { createTestDatabase, fixtureDataSource, TestDatabase, usingMysql } from '../../../../../test/support/database';
import { isDuplicateKeyError } from '../../persistence/db-errors';
import { driverPool } from '../../persistence/sql/driver-pool';
import { BaseRecord } from '../../persistence/base-record';
import { epochMillis } from '../../persistence/columns';
import { AllTenantsRead, TenantScope } from '../../tenancy/tenant-scope';
import { LiveRecordTable } from './live-record-table';
import { TenantTable } from './tenant-table';

/** A tenant-owned row that is not a record: a counter with a holder, keyed by (tenant, slot). */
@Entity('fixture_slot')
class Slot {
  @PrimaryColumn({ type: 'varchar', length: 64 })
  tenantId: string;

  @PrimaryColumn({ type: 'varchar', length: 32 })
  slotId: string;

  @Column({ type: 'varchar', length: 32, nullable: true })
  holder: string | null;

  @Column({ type: 'bigint', transformer: epochMillis })
  until: number;

  @Column({ type: 'int' })
  usedCount: number;

  @Column({ type: 'int' })
  totalCount: number;
}

@Entity('fixture_ticket')
class Ticket extends BaseRecord {
  @PrimaryColumn({ type: 'varchar', length: 32 })
  ticketId: string;

  @Column({ type: 'varchar', length: 64 })
  state: string;
}

let database: TestDatabase;
let dataSource: DataSource;
let slots: TenantTable<Slot>;
let tickets: LiveRecordTable<Ticket>;
const t1 = TenantScope.system('fixture tenant one', 'tt-1', 'sys-1');
const t2 = TenantScope.system('fixture tenant two', 'tt-2', 'sys-2');
const anyTenant = AllTenantsRead.of('fixture scan');
const slot = (slotId: string, o: Partial<Slot> = {}) => ({ slotId, holder: null, until: 0, usedCount: 0, totalCount: 10, ...o });
const stored = (scope: TenantScope, slotId: string) => slots.findOne(scope, { slotId });

beforeAll(async () => {
  database = await createTestDatabase();
  dataSource = await fixtureDataSource(database, [Slot, Ticket]);
  slots = new TenantTable(Slot, dataSource);
  tickets = new LiveRecordTable(Ticket, 'ticketId', dataSource);
});

afterAll(async () => {
  await dataSource?.destroy();
  await database?.drop();
});

describe('TenantTable conditional writes', () => {
  beforeAll(async () => {
    await slots.insertRows(t1, [slot('a'), slot('b', { usedCount: 9 })]);
    await slots.insertRows(t2, [slot('a')]);
  });

  it('inserts only the rows whose key is free, in the scope', async () => {
    await slots.insertRowsIfAbsent(t1, [slot('a', { holder: 'late' }), slot('c', { holder: 'first' })]);
    await slots.insertRowsIfAbsent(t2, [slot('c', { holder: 'other tenant' })]);
    await slots.insertRowsIfAbsent(t2, []);
    expect((await stored(t1, 'a'))?.holder).toBeNull();
    expect((await stored(t1, 'c'))?.holder).toBe('first');
    expect((await stored(t2, 'c'))?.holder).toBe('other tenant');
  });

  it('updates only while the condition holds and answers how many rows changed', async () => {
    const take = (scope: TenantScope, slotId: string, n: number) =>
      slots.updateColumns(scope, { slotId, usedCount: Raw((used) => `${used} <= total_count - :n`, { n }) }, {
        usedCount: () => `used_count + ${n}`,
      } as never);
    expect(await take(t1, 'b', 2)).toBe(0);
    expect(await take(t1, 'b', 1)).toBe(1);
    expect(await take(t1, 'b', 1)).toBe(0);
    expect((await stored(t1, 'b'))?.usedCount).toBe(10);
    expect(await slots.updateColumns(t2, { slotId: 'b', usedCount: MoreThanOrEqual(0) }, { holder: 'x' })).toBe(0);
    const claim = (scope: TenantScope, holder: string) =>
      slots.updateColumns(scope, { slotId: In(['a', 'c']), until: LessThanOrEqual(1000) }, { holder, until: 5000 });
    expect(await claim(t1, 'one')).toBe(2);
    expect(await claim(t1, 'two')).toBe(0);
    expect((await stored(t2, 'a'))?.holder).toBeNull();
  });

  it("deletes only the scope's matching rows and answers how many", async () => {
    await slots.insertRows(t1, [slot('d1', { holder: 'gone' }), slot('d2', { holder: 'gone' })]);
    await slots.insertRows(t2, [slot('d1', { holder: 'gone' })]);
    expect(await slots.deleteRows(t1, { slotId: In(['d1', 'd2']), holder: 'gone' })).toBe(2);
    expect(await slots.deleteRows(t1, { slotId: 'd1' })).toBe(0);
    expect((await stored(t2, 'd1'))?.holder).toBe('gone');
  });
});

describe('reads across tenants', () => {
  beforeAll(async () => {
    await tickets.insertRecords(t1, [
      { ticketId: 'x1', state: 'OPEN' },
      { ticketId: 'x2', state: 'OPEN' },
    ]);
    await tickets.insertRecords(t2, [{ ticketId: 'x1', state: 'OPEN' }]);
    expect(await tickets.softDelete(t1, { ticketId: 'x2' })).toBe(1);
  });

  it('scan and count the rows of every tenant, live records only', async () => {
    const open = tickets.selectInAnyTenant(anyTenant, { state: 'OPEN' }, 't').orderBy('t.tenantId', 'ASC');
    expect((await open.getMany()).map((t) => `${t.tenantId}/${t.ticketId}`)).toEqual(['tt-1/x1', 'tt-2/x1']);
    expect(await tickets.selectInAnyTenant(anyTenant).getCount()).toBe(2);
    expect(await slots.selectInAnyTenant(anyTenant, { slotId: 'c' }).getCount()).toBe(2);
  });

  it('find one row of any tenant, on any tenant table', async () => {
    expect((await slots.findOneInAnyTenant(anyTenant, { holder: 'other tenant' }))?.tenantId).toBe('tt-2');
    expect(await tickets.findOneInAnyTenant(anyTenant, { ticketId: 'x2' })).toBeNull();
  });
});

describe('single-row INSERTs', () => {
  it("store what a multi-row INSERT stores, and run prepared on MySQL's pool", async () => {
    const pool = usingMysql() ? (driverPool(dataSource) as { execute: (...args: unknown[]) => unknown }) : undefined;
    const execute = pool && jest.spyOn(pool, 'execute');
    try {
      await tickets.insertRecords(t1, [{ ticketId: 's1', state: 'ONE' }], { now: 1_000 });
      await tickets.insertRecords(
        t1,
        [
          { ticketId: 's2', state: 'ONE' },
          { ticketId: 's3', state: 'TWO' },
        ],
        { now: 1_000 },
      );
      const inserts = (execute?.mock.calls ?? []).filter(([sql]) => String(sql).startsWith('INSERT'));
      expect(inserts).toHaveLength(usingMysql() ? 1 : 0);
    } finally {
      execute?.mockRestore();
    }
    const [one, two] = await Promise.all(['s1', 's2'].map((ticketId) => tickets.findOne(t1, { ticketId })));
    expect({ ...one, ticketId: 's2' }).toEqual(two);
    expect(one).toMatchObject({ tenantId: 'tt-1', revision: 1, createdTime: 1_000, lastModifiedTime: 1_000, deleteTime: null });
  });

  it('refuse a taken identifier as a duplicate key, as TypeORM does', async () => {
    const again = await tickets.insertRecords(t1, [{ ticketId: 's1', state: 'AGAIN' }]).catch((e: unknown) => e);
    expect(isDuplicateKeyError(again)).toBe(true);
    expect((await tickets.findOne(t1, { ticketId: 's1' }))?.state).toBe('ONE');
  });
});
