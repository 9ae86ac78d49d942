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
