/**
 * Two replicas of main-service over one database (one SQLite file, or one MySQL/MariaDB database with
 * DB_URL): listCache of either shows a write through the other at once, well inside the TTL, including
 * rows an asynchronous import applied and writes in the default tenant every tenant inherits
 * (docs/operations.md "Scaling out").
 */
import { createSharedDatabase, TestDatabase } from '../../support/database';
import { CONFIG, startApp, TestApp } from '../../support/test-app';
import { Claims } from '../../support/tokens';

type Rec = Record<string, string>;

const P = `${CONFIG}/data-dictionary`;
const DEFAULT: Claims = { tenantId: 'default', sub: 'root' };
/** Far beyond the test's run time: only the write versions can make a replica reload. */
const LONG_TTL = { LIST_CACHE_TTL_SECONDS: '3600' };

describe('listCache across two replicas', () => {
  let database: TestDatabase;
  let a: TestApp;
  let b: TestApp;
  let counter = 0;
  const seed = () => `r${++counter}x${Date.now().toString(36)}`;

  beforeAll(async () => {
    database = await createSharedDatabase();
    a = await startApp(LONG_TTL, { shared: database });
    b = await startApp(LONG_TTL, { shared: database });
  });

  afterAll(async () => {
    await a?.close();
    await b?.close();
    await database?.drop();
  });

  /** [code, name] of seed s's records in a replica's listCache, by code. */
  async function cached(t: TestApp, s: string, claims?: Claims): Promise<string[][]> {
    const res = await t.post(`${P}/listCache`, { dataDictionaryTypeCode: s }, claims);
    expect(res).toMatchObject({ httpStatus: 200, status: 200 });
    return (res.data as Rec[]).map((x) => [x.dataDictionaryCode, x.name]).sort(([x], [y]) => (x < y ? -1 : 1));
  }

  async function idOf(t: TestApp, s: string, code: string): Promise<string> {
    const res = await t.post(`${P}/list`, { dataDictionaryTypeCode: s, dataDictionaryCode: code });
    return (res.data as Rec[])[0].dataDictionaryId;
  }

  it("a save, update and removal through one replica show at once in the other's listCache", async () => {
    const s = seed();
    expect(await a.post(`${P}/save`, { dataDictionaryTypeCode: s, dataDictionaryCode: 'one', name: 'Old' })).toMatchObject({
      status: 200,
      data: true,
    });
    expect(await b.post(`${P}/save`, { dataDictionaryTypeCode: s, dataDictionaryCode: 'two', name: 'Two' })).toMatchObject({
      status: 200,
      data: true,
    });
    expect(await cached(a, s)).toEqual([
      ['one', 'Old'],
      ['two', 'Two'],
    ]);
    expect(await cached(b, s)).toEqual([
      ['one', 'Old'],
      ['two', 'Two'],
    ]);

    const id = await idOf(a, s, 'one');
    expect(await a.put(`${P}/updateById`, { dataDictionaryId: id, name: 'New' })).toMatchObject({ status: 200, data: true });
    expect(await cached(b, s)).toEqual([
      ['one', 'New'],
      ['two', 'Two'],
    ]);

    expect(await b.del(`${P}/removeById?id=${await idOf(b, s, 'two')}`)).toMatchObject({ status: 200, data: true });
    expect(await cached(a, s)).toEqual([['one', 'New']]);
  });

  it("a restore and a purge through one replica show at once in the other's listCache, count and recycle bin", async () => {
    const s = seed();
    for (const code of ['one', 'two'])
      expect(await a.post(`${P}/save`, { dataDictionaryTypeCode: s, dataDictionaryCode: code, name: code })).toMatchObject({ data: true });
    const [one, two] = [await idOf(a, s, 'one'), await idOf(a, s, 'two')];
    expect(await a.del(`${P}/removeByIds?ids=${one}&ids=${two}`)).toMatchObject({ status: 200, data: true });
    expect(await cached(b, s)).toEqual([]);
    const binTotal = async (t: TestApp) => (await t.post(`${P}/deletedPage`, { current: 1, pageSize: 1 })).extraData.total as number;
    const before = await binTotal(b);
    const count = async (t: TestApp) => (await t.post(`${P}/count`, {})).data as number;
    const live = await count(b);

    expect(await a.put(`${P}/restoreById?id=${one}`, undefined)).toMatchObject({ status: 200, data: true });
    expect(await cached(b, s)).toEqual([['one', 'one']]);
    expect([await count(b), await binTotal(b)]).toEqual([live + 1, before - 1]);

    expect(await b.del(`${P}/purgeByIds?ids=${two}`)).toMatchObject({ status: 200, data: true });
    expect(await binTotal(a)).toBe(before - 2);
    expect(await a.put(`${P}/restoreById?id=${two}`, undefined)).toMatchObject({ status: 200, data: false });
    expect(await cached(a, s)).toEqual([['one', 'one']]);
  });

  it('concurrent restores of one record on two replicas: one brings it back; a racing save of its key and a restore never both win', async () => {
    const s = seed();
    const body = { dataDictionaryTypeCode: s, dataDictionaryCode: 'one', name: 'one' };
    for (let round = 0; round < 5; round++) {
      expect(await a.post(`${P}/save`, body)).toMatchObject({ data: true });
      const id = await idOf(a, s, 'one');
      expect(await a.del(`${P}/removeById?id=${id}`)).toMatchObject({ data: true });
      const restores = await Promise.all([a, b, a, b].map((t) => t.put(`${P}/restoreById?id=${id}`, undefined)));
      expect(restores.map((res) => res.data).sort()).toEqual([false, false, false, true]);
      expect(await b.del(`${P}/removeById?id=${id}`)).toMatchObject({ data: true });
      const [restored, saved] = await Promise.all([b.put(`${P}/restoreById?id=${id}`, undefined), a.post(`${P}/save`, body)]);
      // exactly one of them holds the key: the other is the resource's 422
      expect([restored.status, saved.status].sort()).toEqual([200, 422]);
      expect(await cached(b, s)).toHaveLength(1);
      expect(await b.del(`${P}/removeById?id=${await idOf(b, s, 'one')}`)).toMatchObject({ data: true });
    }
  });

  it("a write in the default tenant through one replica shows at once in every tenant's listCache of the other", async () => {
    const s = seed();
    expect(await cached(b, s)).toEqual([]);
    expect(await a.post(`${P}/save`, { dataDictionaryTypeCode: s, dataDictionaryCode: 'shared', name: 'Shared' }, DEFAULT)).toMatchObject({
      status: 200,
    });
    expect(await cached(b, s)).toEqual([['shared', 'Shared']]);
    expect(await cached(b, s, { tenantId: 'tenant-z', sub: 'zed' })).toEqual([['shared', 'Shared']]);
  });

  it("rows an asynchronous import applied (by either replica's consumer) show at once in both replicas' listCache", async () => {
    const s = seed();
    expect(await cached(a, s)).toEqual([]);
    expect(await cached(b, s)).toEqual([]);
    const res = await b.post(`${P}/importList`, [{ dataDictionaryTypeCode: s, dataDictionaryCode: 'imported', name: 'Imported' }]);
    expect(res).toMatchObject({ status: 200, data: true });
    await Promise.all([a.drainOutbox(), b.drainOutbox()]);
    expect((await b.get(`${P}/importStatus?batchId=${res.extraData.batchId}`)).data).toMatchObject({ status: 'APPLIED' });
    expect(await cached(a, s)).toEqual([['imported', 'Imported']]);
    expect(await cached(b, s)).toEqual([['imported', 'Imported']]);
  });
});
