/**
 * The listCache store (ttl-cache.ts) and the merged lists over it (merged-list-cache.ts): bounded by
 * entries and by rows whatever the number of tenants, an entry gone once its TTL has passed (read or
 * not), the default tenant's list held once for every tenant, and the merged answers unchanged.
 * Against the real database of the leg (in-memory SQLite, or MySQL/MariaDB when DB_URL is set).
 */
import { Column, DataSource, Entity, PrimaryColumn } from 'typeorm';
import { createTestDatabase, fixtureDataSource, TestDatabase } from '../../../../../test/support/database';
import { CrudConfig } from '../../config/crud.config';
import { readConfig } from '../../config/environment';
import { BaseRecord } from '../../persistence/base-record';
import { TenantScope } from '../../tenancy/tenant-scope';
import { CrudService } from '../service/crud.service';
import { Text } from '../fields/fields';
import { LiveCount } from '../tables/live-count.entity';
import { defineResource } from '../fields/resource';
import { TtlCache } from './ttl-cache';
import { LiveRecordTable } from '../tables/live-record-table';

@Entity('fixture_listed')
class Listed extends BaseRecord {
  @PrimaryColumn({ type: 'varchar', length: 32 })
  listedId: string;

  @Column({ type: 'varchar', length: 32 })
  code: string;

  @Column({ type: 'varchar', length: 64 })
  name: string;

  @Column({ type: 'int' })
  sort: number;
}

class ListedSave {
  listedId?: string;
  @Text({ max: 32, required: true })
  code: string;
  @Text({ max: 64, required: true })
  name: string;
  sort?: number;
}

const resource = defineResource<Listed>({
  path: 'fixture/listed',
  tag: 'fixture',
  permission: 'fixture-listed',
  title: 'Listed',
  entity: Listed,
  idField: 'listedId',
  saveDto: ListedSave,
  sortable: ['sort'],
  filters: ['code', 'name'],
  defaultSort: [['sort', 'ASC']],
  uniqueKey: ['code'],
  listCache: true,
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const bounds = (listCacheMaxEntries: number, listCacheMaxRows: number) => ({ listCacheMaxEntries, listCacheMaxRows });
const rowsOf = (n: number) => Array.from({ length: n }, (_, i) => ({ i }));

describe('TtlCache', () => {
  it('holds at most its bound of entries, whatever the number of tenants', async () => {
    const cache = new TtlCache(bounds(10, 1000));
    for (let t = 0; t < 200; t++)
      await cache.getOrLoad(
        'res',
        `t${t}`,
        60_000,
        () => Promise.resolve(rowsOf(2)),
        '',
        (r) => r.length,
      );
    expect(cache.size).toBe(10);
    expect(cache.heldSize).toBe(20);
  });

  it('holds at most its bound of rows, and does not keep a list larger than the bound', async () => {
    const cache = new TtlCache(bounds(1000, 100));
    for (let t = 0; t < 50; t++)
      await cache.getOrLoad(
        'res',
        `t${t}`,
        60_000,
        () => Promise.resolve(rowsOf(30)),
        '',
        (r) => r.length,
      );
    expect(cache.heldSize).toBeLessThanOrEqual(100);
    expect(cache.size).toBe(3);
    const load = jest.fn(() => Promise.resolve(rowsOf(101)));
    await cache.getOrLoad('res', 'huge', 60_000, load, '', (r) => r.length);
    await cache.getOrLoad('res', 'huge', 60_000, load, '', (r) => r.length);
    expect(load).toHaveBeenCalledTimes(2);
    expect(cache.heldSize).toBeLessThanOrEqual(100);
  });

  it('drops an entry once its TTL has passed, without it being read again', async () => {
    const cache = new TtlCache(bounds(10, 1000));
    const load = jest.fn(() => Promise.resolve(rowsOf(5)));
    await cache.getOrLoad('res', 't', 40, load, 'v1', (r) => r.length);
    await cache.getOrLoad('res', 't', 40, load, 'v1', (r) => r.length);
    expect([cache.size, load.mock.calls.length]).toEqual([1, 1]);
    await sleep(120);
    expect([cache.size, cache.heldSize]).toEqual([0, 0]);
  });

  it('reuses an entry only at its version; keeps nothing with TTL 0 or when a load fails', async () => {
    const cache = new TtlCache(bounds(10, 1000));
    const load = jest.fn(() => Promise.resolve(rowsOf(1)));
    await cache.getOrLoad('res', 't', 60_000, load, 'v1');
    await cache.getOrLoad('res', 't', 60_000, load, 'v2');
    await cache.getOrLoad('res', 't', 60_000, load, 'v2');
    expect(load).toHaveBeenCalledTimes(2);
    await cache.getOrLoad('res', 'zero', 0, load);
    await expect(cache.getOrLoad('res', 'failing', 60_000, () => Promise.reject(new Error('lost')))).rejects.toThrow('lost');
    expect(cache.size).toBe(1);
  });
});

describe('listCache bounds configuration', () => {
  it('reads LIST_CACHE_MAX_ENTRIES and LIST_CACHE_MAX_ROWS, refusing anything but a positive integer', () => {
    expect(readConfig(CrudConfig, {})).toMatchObject({ listCacheMaxEntries: 10_000, listCacheMaxRows: 100_000 });
    expect(readConfig(CrudConfig, { LIST_CACHE_MAX_ENTRIES: '50', LIST_CACHE_MAX_ROWS: '2000' })).toMatchObject({
      listCacheMaxEntries: 50,
      listCacheMaxRows: 2000,
    });
    for (const bad of ['0', '-1', 'lots', '2.5']) {
      expect(() => readConfig(CrudConfig, { LIST_CACHE_MAX_ENTRIES: bad })).toThrow(/LIST_CACHE_MAX_ENTRIES/);
      expect(() => readConfig(CrudConfig, { LIST_CACHE_MAX_ROWS: bad })).toThrow(/LIST_CACHE_MAX_ROWS/);
    }
  });
});

describe('listCache merged lists', () => {
  let database: TestDatabase;
  let dataSource: DataSource;
  let config: CrudConfig;
  const DEFAULT = TenantScope.system('fixture default tenant', 'default', 'sys');
  const tenant = (id: string) => TenantScope.system('fixture tenant', id, 'sys');
  const TENANTS = Array.from({ length: 40 }, (_, i) => tenant(`tenant-${i}`));
  const codes = (rows: Listed[]) => rows.map((r) => `${r.tenantId}:${r.code}`);

  beforeAll(async () => {
    database = await createTestDatabase();
    config = readConfig(CrudConfig, { ...process.env, ...database.env, LIST_CACHE_TTL_SECONDS: '3600' });
    dataSource = await fixtureDataSource(database, [Listed, LiveCount], { counted: [Listed] });
    const seeding = new LiveRecordTable(Listed, 'listedId', dataSource);
    await seeding.insertRecords(
      DEFAULT,
      Array.from({ length: 50 }, (_, i) => ({ listedId: `d${i}`, code: `c${i}`, name: `default ${i}`, sort: i * 10 })),
    );
    // tenant-0 overrides c1 and adds c-own between c2 and c3; the other tenants only inherit
    await seeding.insertRecords(TENANTS[0], [
      { listedId: 'o1', code: 'c1', name: 'own 1', sort: 10 },
      { listedId: 'o2', code: 'c-own', name: 'own', sort: 25 },
    ]);
  });

  afterAll(async () => {
    await dataSource?.destroy();
    await database?.drop();
  });

  it('answers each tenant its rows merged with the default ones, in order, filtered', async () => {
    const crud = new CrudService(resource, dataSource, config, new TtlCache());
    const own = await crud.listCache({}, TENANTS[0]);
    expect(codes(own).slice(0, 5)).toEqual(['default:c0', 'tenant-0:c1', 'default:c2', 'tenant-0:c-own', 'default:c3']);
    expect(own).toHaveLength(51);
    expect(codes(await crud.listCache({ code: 'c1' }, TENANTS[0]))).toEqual(['tenant-0:c1']);
    expect(codes(await crud.listCache({ code: 'c1' }, TENANTS[1]))).toEqual(['default:c1']);
    expect(codes(await crud.listCache({ name: 'own' }, TENANTS[1]))).toEqual([]);
    expect(await crud.listCache({}, DEFAULT)).toHaveLength(50);
  });

  it("holds the default tenant's rows once, shared by every tenant's answer", async () => {
    const cache = new TtlCache();
    const crud = new CrudService(resource, dataSource, config, cache);
    const answers = [];
    for (const scope of TENANTS) answers.push(await crud.listCache({}, scope));
    const inheritedC5 = answers.map((rows) => rows.find((r) => r.code === 'c5'));
    for (const row of inheritedC5) expect(row).toBe(inheritedC5[0]);
    // the default list (50 rows), tenant-0's own 2, and one empty list per other tenant (each counts 1)
    expect(cache.heldSize).toBe(50 + 2 + (TENANTS.length - 1));
  });

  it('keeps the bound of lists over many tenants, and answers every tenant correctly', async () => {
    const cache = new TtlCache(bounds(5, 1000));
    const crud = new CrudService(resource, dataSource, config, cache);
    for (const scope of TENANTS) {
      const rows = await crud.listCache({}, scope);
      expect(rows).toHaveLength(scope === TENANTS[0] ? 51 : 50);
      expect(cache.size).toBeLessThanOrEqual(5);
    }
    expect(cache.heldSize).toBeLessThanOrEqual(1000);
  });

  it("a write in the default tenant shows in every tenant's next answer", async () => {
    const crud = new CrudService(resource, dataSource, config, new TtlCache());
    expect(codes(await crud.listCache({ code: 'c-new' }, TENANTS[2]))).toEqual([]);
    await crud.save({ listedId: 'dn', code: 'c-new', name: 'new', sort: 5 }, DEFAULT);
    for (const scope of [TENANTS[2], TENANTS[3], DEFAULT])
      expect(codes(await crud.listCache({ code: 'c-new' }, scope))).toEqual(['default:c-new']);
  });

  it('a write made outside the service shows at once: the table counts every write', async () => {
    const crud = new CrudService(resource, dataSource, config, new TtlCache());
    const table = new LiveRecordTable(Listed, 'listedId', dataSource);
    expect(codes(await crud.listCache({ code: 'c-elsewhere' }, TENANTS[4]))).toEqual([]);
    await table.insertRecords(TENANTS[4], [{ listedId: 'e1', code: 'c-elsewhere', name: 'inserted', sort: 1 }]);
    expect(await crud.listCache({ code: 'c-elsewhere' }, TENANTS[4])).toMatchObject([{ name: 'inserted' }]);
    await table.updateRecords(TENANTS[4], { listedId: 'e1' }, { name: 'updated' });
    expect(await crud.listCache({ code: 'c-elsewhere' }, TENANTS[4])).toMatchObject([{ name: 'updated' }]);
    await table.softDelete(TENANTS[4], { listedId: 'e1' });
    expect(await crud.listCache({ code: 'c-elsewhere' }, TENANTS[4])).toEqual([]);
  });
});
