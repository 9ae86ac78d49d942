/**
 * Upsert by the uniqueness key as imports use it (CrudService.upsertMany: keys looked up per chunk with
 * an IN list per key field, new keys in multi-row INSERTs): exact keys only, repeated keys, and a
 * batch larger than one lookup and one INSERT chunk. Synchronous data-dictionary-table/importList
 * (four key fields) on SQLite and MariaDB.
 */
import { CONFIG, startApp, TestApp } from '../support/test-app';

const P = `${CONFIG}/data-dictionary-table`;
let t: TestApp;
let n = 0;
const seed = () => `up${++n}x${Date.now().toString(36)}`;
const row = (type: string, code: string, r: string, key: string, value: string) => ({ dataDictionaryTypeCode: type, dataDictionaryCode: code, row: r, key, value, name: 'n', sort: 1 });
const rowsOf = async (type: string) => {
  const res = await t.post(`${P}/list`, { dataDictionaryTypeCode: type });
  return (res.data as Record<string, any>[]).map((x) => [x.dataDictionaryCode, x.row, x.key, x.value, x.revision]).sort();
};

beforeAll(async () => {
  t = await startApp();
});
afterAll(async () => {
  await t?.close();
});

describe('import upsert by key', () => {
  it('matches whole keys only: a new combination of existing field values is a new record', async () => {
    const s = seed();
    await t.post(`${P}/importList`, [row(s, 'c1', 'r1', 'k1', 'a'), row(s, 'c2', 'r2', 'k2', 'b')]);
    const res = await t.post(`${P}/importList`, [row(s, 'c1', 'r2', 'k2', 'new'), row(s, 'c2', 'r2', 'k2', 'b2')]);
    expect(res).toMatchObject({ status: 200, extraData: { count: 2, inserted: 1, updated: 1 } });
    expect(await rowsOf(s)).toEqual([
      ['c1', 'r1', 'k1', 'a', 1],
      ['c1', 'r2', 'k2', 'new', 1],
      ['c2', 'r2', 'k2', 'b2', 2],
    ]);
  });

  it('a key repeated in one batch is inserted once, then updated in batch order', async () => {
    const s = seed();
    const res = await t.post(`${P}/importList`, [row(s, 'c', 'r', 'k', 'first'), row(s, 'c', 'r', 'k', 'second')]);
    expect(res).toMatchObject({ status: 200, extraData: { count: 2, inserted: 1, updated: 1 } });
    expect(await rowsOf(s)).toEqual([['c', 'r', 'k', 'second', 2]]);
  });

  it('a batch spanning several lookup and INSERT chunks: all inserted, then all updated', async () => {
    const s = seed();
    const rows = (value: string) => Array.from({ length: 2_100 }, (_, i) => row(s, `c${i % 7}`, `r${i}`, 'k', value));
    expect(await t.post(`${P}/importList`, rows('one'))).toMatchObject({ status: 200, extraData: { inserted: 2_100, updated: 0 } });
    expect(await t.post(`${P}/importList`, rows('two'))).toMatchObject({ status: 200, extraData: { inserted: 0, updated: 2_100 } });
    const stored = await rowsOf(s);
    expect(stored).toHaveLength(2_100);
    expect(new Set(stored.map((x) => `${x[3]}/${x[4]}`))).toEqual(new Set(['two/2']));
  });
});
