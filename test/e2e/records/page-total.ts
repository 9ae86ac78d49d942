/**
 * page's `total` (docs/contract.md "Paging"): exact for the caller's own writes although a replica may
 * reuse a count it made (PAGE_TOTAL_TTL_MS), also through another replica on the same database; no COUNT
 * when the rows show the end, nor without filters (the kept count), nor by one exact filter (the kept count of its
 * value); a COUNT on every page with several filters with PAGE_TOTAL_TTL_MS=0; a count never reused for
 * another tenant or filter. On in-memory SQLite, or on MySQL/MariaDB with DB_URL.
 */
import { createSharedDatabase, TestDatabase } from '../../support/database';
import { CONFIG, Envelope, startApp, TestApp } from '../../support/test-app';
import { Claims } from '../../support/tokens';

type Rec = Record<string, string>;

const VALUE_SET = `${CONFIG}/value-set`;
const VALUE_SET_TABLE = 'configuration_value_set';
const DICTIONARY = `${CONFIG}/data-dictionary`;
const SNAPSHOT = '/main-service/main-api/snapshot/device-state-snap';
/** Far beyond the test's run time: only the write versions can make a replica count again. */
const LONG_TTL = { PAGE_TOTAL_TTL_MS: '3600000' };

let counter = 0;
const seed = () => `p${++counter}x${Date.now().toString(36)}`;
/** A tenant of its own per test, so unfiltered pages see only the test's rows. */
const tenant = (): Claims => ({ tenantId: `pt-${seed()}`, sub: 'alice' });

/** The COUNT statements an app has run on a table so far, seen through its DataSource's query log hook. */
function countStatements(t: TestApp): (table: string) => number {
  const logged = jest.spyOn(t.dataSource.logger, 'logQuery');
  return (table) =>
    logged.mock.calls.filter(([sql]) => /\bCOUNT\s*\(/i.test(sql) && new RegExp(`\\bFROM\\s+[\`"]${table}[\`"]`, 'i').test(sql)).length;
}

function ok(res: Envelope): Envelope {
  expect(res).toMatchObject({ httpStatus: 200, status: 200 });
  return res;
}

async function total(t: TestApp, path: string, body: object, claims?: Claims): Promise<number> {
  return ok(await t.post(`${path}/page`, body, claims)).extraData.total as number;
}

const valueSet = (type: string, value: string) => ({ valueSetTypeCode: type, value, name: `Name ${value}`, sort: 1 });

async function valueSetId(t: TestApp, claims: Claims, type: string, value: string): Promise<string> {
  return (ok(await t.post(`${VALUE_SET}/list`, { valueSetTypeCode: type, value }, claims)).data as Rec[])[0].valueSetId;
}

describe('one app, the default PAGE_TOTAL_TTL_MS', () => {
  let t: TestApp;
  let counts: (table: string) => number;

  beforeAll(async () => {
    t = await startApp();
    counts = countStatements(t);
  });
  afterAll(() => t?.close());

  it("a caller's save, update, removal and import show in the very next page total and count, by one filter without a COUNT", async () => {
    const claims = tenant();
    const type = seed();
    // pageSize 1: every page but an empty one is full, so its total is counted or reused
    const byType = { valueSetTypeCode: type, current: 1, pageSize: 1 };
    const all = { current: 1, pageSize: 1 };
    const before = counts(VALUE_SET_TABLE);
    const totals = async () => {
      const counted = ok(await t.post(`${VALUE_SET}/count`, { valueSetTypeCode: type }, claims)).data as number;
      const [filtered, unfiltered] = [await total(t, VALUE_SET, byType, claims), await total(t, VALUE_SET, all, claims)];
      expect(counted).toBe(filtered);
      return [filtered, unfiltered];
    };
    for (const value of ['a', 'b']) ok(await t.post(`${VALUE_SET}/save`, valueSet(type, value), claims));
    expect(await totals()).toEqual([2, 2]);

    ok(await t.post(`${VALUE_SET}/save`, valueSet(type, 'c'), claims));
    expect(await totals()).toEqual([3, 3]);

    const id = await valueSetId(t, claims, type, 'c');
    expect(ok(await t.put(`${VALUE_SET}/updateById`, { valueSetId: id, valueSetTypeCode: `${type}-moved` }, claims)).data).toBe(true);
    expect(await totals()).toEqual([2, 3]);

    expect(ok(await t.del(`${VALUE_SET}/removeById?id=${await valueSetId(t, claims, type, 'b')}`, claims)).data).toBe(true);
    expect(await totals()).toEqual([1, 2]);

    ok(await t.post(`${VALUE_SET}/importList`, [valueSet(type, 'd'), valueSet(type, 'e')], claims));
    expect(await totals()).toEqual([3, 4]);
    // one exact filter's total and count read the kept count of its value; none counted the rows
    expect(counts(VALUE_SET_TABLE)).toBe(before);
  });

  it('pages with several filters between writes reuse their count', async () => {
    const claims = tenant();
    const type = seed();
    const both = { valueSetTypeCode: type, value: 'a', current: 1, pageSize: 1 };
    ok(await t.post(`${VALUE_SET}/save`, valueSet(type, 'a'), claims));
    expect(await total(t, VALUE_SET, both, claims)).toBe(1);
    const before = counts(VALUE_SET_TABLE);
    expect(await total(t, VALUE_SET, both, claims)).toBe(1);
    expect(counts(VALUE_SET_TABLE)).toBe(before); // the cache is in play
    ok(await t.post(`${VALUE_SET}/save`, valueSet(type, 'b'), claims));
    expect(await total(t, VALUE_SET, both, claims)).toBe(1);
    expect(counts(VALUE_SET_TABLE)).toBe(before + 1); // a write: counted again
  });

  it('a first page shorter than pageSize answers total without a COUNT; an unfiltered page never counts its rows', async () => {
    const claims = tenant();
    const type = seed();
    const before = counts(VALUE_SET_TABLE);
    expect(ok(await t.post(`${VALUE_SET}/page`, { current: 1, pageSize: 10 }, claims)).extraData).toEqual({
      current: 1,
      pages: 0,
      size: 10,
      total: 0,
    });
    for (const value of ['a', 'b', 'c']) ok(await t.post(`${VALUE_SET}/save`, valueSet(type, value), claims));
    expect(ok(await t.post(`${VALUE_SET}/page`, { valueSetTypeCode: type, current: 1, pageSize: 10 }, claims)).extraData).toEqual({
      current: 1,
      pages: 1,
      size: 10,
      total: 3,
    });
    expect(ok(await t.post(`${VALUE_SET}/page`, { current: 0, pageSize: 5 }, claims)).extraData).toEqual({
      current: 0,
      pages: 1,
      size: 5,
      total: 3,
    });
    const second = ok(await t.post(`${VALUE_SET}/page`, { current: 2, pageSize: 2 }, claims));
    expect([second.data.length, second.extraData]).toEqual([1, { current: 2, pages: 2, size: 2, total: 3 }]);
    expect(counts(VALUE_SET_TABLE)).toBe(before);

    // a later page needs the total before its rows (it is read from the nearer end): one with several filters counts
    for (const body of [
      { current: 3, pageSize: 2 },
      { valueSetTypeCode: type, current: 3, pageSize: 2 },
    ])
      expect(ok(await t.post(`${VALUE_SET}/page`, body, claims)).extraData).toEqual({ current: 3, pages: 2, size: 2, total: 3 });
    expect(counts(VALUE_SET_TABLE)).toBe(before);
    const both = { valueSetTypeCode: type, value: 'a', current: 2, pageSize: 1 };
    expect(ok(await t.post(`${VALUE_SET}/page`, both, claims)).extraData).toEqual({ current: 2, pages: 1, size: 1, total: 1 });
    expect(counts(VALUE_SET_TABLE)).toBe(before + 1);
  });

  it("a count is never reused for another tenant's pages", async () => {
    const [x, y] = [tenant(), tenant()];
    const type = seed();
    for (const value of ['a', 'b', 'c']) ok(await t.post(`${VALUE_SET}/save`, valueSet(type, value), x));
    // as many writes in y, so both tenants' write versions are equal
    for (const value of ['a', 'b']) ok(await t.post(`${VALUE_SET}/save`, valueSet(type, value), y));
    ok(await t.del(`${VALUE_SET}/removeById?id=${await valueSetId(t, y, type, 'b')}`, y));
    for (const body of [{ valueSetTypeCode: type, current: 1, pageSize: 1 }, { current: 1, pageSize: 1 }, { pageSize: 0 }]) {
      expect(await total(t, VALUE_SET, body, x)).toBe(3);
      expect(await total(t, VALUE_SET, body, y)).toBe(1);
      expect(await total(t, VALUE_SET, body, x)).toBe(3);
    }
  });

  it("a count is never reused for another filter's pages, time ranges included, though sort and paging may differ", async () => {
    const claims = tenant();
    const [type, other] = [seed(), seed()];
    for (const [typeCode, value] of [
      [type, 'a'],
      [type, 'b'],
      [type, 'c'],
      [other, 'a'],
      [other, 'b'],
    ])
      ok(await t.post(`${VALUE_SET}/save`, valueSet(typeCode, value), claims));
    const page = { current: 1, pageSize: 1 };
    expect(await total(t, VALUE_SET, { ...page, valueSetTypeCode: type }, claims)).toBe(3);
    expect(await total(t, VALUE_SET, { ...page, valueSetTypeCode: other }, claims)).toBe(2);
    expect(await total(t, VALUE_SET, { ...page, valueSetTypeCode: type, value: 'a' }, claims)).toBe(1);
    expect(await total(t, VALUE_SET, { ...page, value: 'a' }, claims)).toBe(2);
    expect(await total(t, VALUE_SET, page, claims)).toBe(5);

    const before = counts(VALUE_SET_TABLE);
    const sorted = { current: 2, pageSize: 2, sqlQuerySorter: { field: 'value', order: 'descend' } };
    expect(await total(t, VALUE_SET, { ...sorted, valueSetTypeCode: type }, claims)).toBe(3);
    expect(await total(t, VALUE_SET, { current: 1, pageSize: 2 }, claims)).toBe(5);
    expect(counts(VALUE_SET_TABLE)).toBe(before); // same filters: the counts above are reused

    const snap = (time: number) => ({ deviceNo: 'DEV-1', deviceType: 'FINGERPRINT_SCANNER', state: 'ONLINE', snapTime: time });
    for (const time of [1000, 2000, 3000]) ok(await t.post(`${SNAPSHOT}/save`, snap(time), claims));
    expect(await total(t, SNAPSHOT, { ...page, snapTimeStart: 1000 }, claims)).toBe(3);
    expect(await total(t, SNAPSHOT, { ...page, snapTimeStart: 2000 }, claims)).toBe(2);
    expect(await total(t, SNAPSHOT, { ...page, snapTimeEnd: 2000 }, claims)).toBe(2);
    expect(await total(t, SNAPSHOT, { ...page, snapTimeStart: 2000, snapTimeEnd: 2000 }, claims)).toBe(1);
    expect(await total(t, SNAPSHOT, { ...page, state: 'FAULT' }, claims)).toBe(0);
  });
});

describe('PAGE_TOTAL_TTL_MS=0', () => {
  let t: TestApp;
  let counts: (table: string) => number;

  beforeAll(async () => {
    t = await startApp({ PAGE_TOTAL_TTL_MS: '0' });
    counts = countStatements(t);
  });
  afterAll(() => t?.close());

  it('every page with several filters counts, unless it is a short first page (it shows its total); one with one filter or none reads a kept count', async () => {
    const claims = tenant();
    const type = seed();
    for (const value of ['a', 'b', 'c']) ok(await t.post(`${VALUE_SET}/save`, valueSet(type, value), claims));
    const before = counts(VALUE_SET_TABLE);
    for (const body of [
      { current: 1, pageSize: 1 },
      { current: 1, pageSize: 1 },
      { current: 1, pageSize: 10 },
      { current: 2, pageSize: 2 },
    ]) {
      expect(await total(t, VALUE_SET, { ...body, valueSetTypeCode: type, value: 'a' }, claims)).toBe(1);
      expect(await total(t, VALUE_SET, { ...body, valueSetTypeCode: type }, claims)).toBe(3);
      expect(await total(t, VALUE_SET, body, claims)).toBe(3);
    }
    expect(counts(VALUE_SET_TABLE)).toBe(before + 3);
  });
});

describe('two apps on one database (replicas), counts kept for an hour', () => {
  let database: TestDatabase;
  let a: TestApp;
  let b: TestApp;
  let countsOfB: (table: string) => number;

  beforeAll(async () => {
    database = await createSharedDatabase();
    a = await startApp(LONG_TTL, { shared: database });
    b = await startApp(LONG_TTL, { shared: database });
    countsOfB = countStatements(b);
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await database?.drop();
  });

  it("a save, update, removal and import through one app show in the other's very next page total", async () => {
    const claims = tenant();
    const type = seed();
    const byType = { valueSetTypeCode: type, current: 1, pageSize: 1 };
    const totals = async (t: TestApp) => [await total(t, VALUE_SET, byType, claims), await total(t, VALUE_SET, { pageSize: 0 }, claims)];
    for (const value of ['a', 'b']) ok(await a.post(`${VALUE_SET}/save`, valueSet(type, value), claims));
    expect(await totals(b)).toEqual([2, 2]);
    expect(await totals(a)).toEqual([2, 2]);
    const before = countsOfB(VALUE_SET_TABLE);
    expect(await totals(b)).toEqual([2, 2]);
    expect(countsOfB(VALUE_SET_TABLE)).toBe(before); // one filter: b reads the kept count of its value

    ok(await a.post(`${VALUE_SET}/save`, valueSet(type, 'c'), claims));
    expect(await totals(b)).toEqual([3, 3]);

    const id = await valueSetId(b, claims, type, 'c');
    ok(await b.put(`${VALUE_SET}/updateById`, { valueSetId: id, valueSetTypeCode: `${type}-moved` }, claims));
    expect(await totals(a)).toEqual([2, 3]);

    ok(await a.del(`${VALUE_SET}/removeById?id=${await valueSetId(a, claims, type, 'a')}`, claims));
    expect(await totals(b)).toEqual([1, 2]);

    ok(await b.post(`${VALUE_SET}/importList`, [valueSet(type, 'd'), valueSet(type, 'e')], claims));
    expect(await totals(a)).toEqual([3, 4]);
  });

  it("rows an asynchronous import applied (by either app's consumer) show in both apps' next page total", async () => {
    const claims = tenant();
    const type = seed();
    const byType = { dataDictionaryTypeCode: type, current: 1, pageSize: 1 };
    ok(await a.post(`${DICTIONARY}/save`, { dataDictionaryTypeCode: type, dataDictionaryCode: 'one', name: 'One' }, claims));
    expect([await total(a, DICTIONARY, byType, claims), await total(b, DICTIONARY, byType, claims)]).toEqual([1, 1]);
    const rows = ['two', 'three'].map((code) => ({ dataDictionaryTypeCode: type, dataDictionaryCode: code, name: code }));
    const res = ok(await b.post(`${DICTIONARY}/importList`, rows, claims));
    await Promise.all([a.drainOutbox(), b.drainOutbox()]);
    expect(ok(await b.get(`${DICTIONARY}/importStatus?batchId=${res.extraData.batchId}`, claims)).data).toMatchObject({
      status: 'APPLIED',
    });
    expect([await total(a, DICTIONARY, byType, claims), await total(b, DICTIONARY, byType, claims)]).toEqual([3, 3]);
  });
});
