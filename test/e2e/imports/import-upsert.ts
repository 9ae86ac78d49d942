/**
 * Upsert by the uniqueness key as imports use it (keyed-upsert.ts: keys looked up per chunk with
 * an IN list per key field, new keys in multi-row INSERTs, existing keys in multi-row upserts by
 * identifier): exact keys only, repeated keys, rows that give different fields, and a batch larger
 * than one lookup and one write chunk. Synchronous data-dictionary-table/importList
 * (four key fields) on SQLite and MariaDB.
 */
import { CONFIG, startApp, TestApp } from '../../support/test-app';
import type { Json } from '../../support/json';

const P = `${CONFIG}/data-dictionary-table`;
describe('import upsert', () => {
  let t: TestApp;
  let n = 0;
  const seed = () => `up${++n}x${Date.now().toString(36)}`;
  const row = (type: string, code: string, r: string, key: string, value: string) => ({
    dataDictionaryTypeCode: type,
    dataDictionaryCode: code,
    row: r,
    key,
    value,
    name: 'n',
    sort: 1,
  });
  const rowsOf = async (type: string) => {
    const res = await t.post(`${P}/list`, { dataDictionaryTypeCode: type });
    return (res.data as Json[]).map((x) => [x.dataDictionaryCode, x.row, x.key, x.value, x.revision]).sort();
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

    type Stored = Record<string, string | number | null>;
    it('rows giving different fields update only what each gives, in batch order, with server columns stamped', async () => {
      const s = seed();
      await t.post(`${P}/importList`, [row(s, 'c', 'r1', 'k', 'a'), row(s, 'c', 'r2', 'k', 'b'), row(s, 'c', 'r3', 'k', 'c')]);
      const before = await t.post(`${P}/list`, { dataDictionaryTypeCode: s });
      const keyOnly = (r: string) => ({ dataDictionaryTypeCode: s, dataDictionaryCode: 'c', row: r, key: 'k' });
      const res = await t.post(
        `${P}/importList`,
        [
          { ...keyOnly('r1'), name: 'named' }, // value omitted: kept
          { ...keyOnly('r2'), value: 'b2' }, // name omitted: kept
          { ...keyOnly('r3'), name: 'first', value: 'c2' },
          { ...keyOnly('r3'), name: 'second' }, // the same key again, other fields: applied after the row before
          { ...keyOnly('r4'), value: 'new' },
        ],
        { tenantId: 'tenant-a', sub: 'bob' },
      );
      expect(res).toMatchObject({ status: 200, extraData: { count: 5, inserted: 1, updated: 4 } });
      const after = (await t.post(`${P}/list`, { dataDictionaryTypeCode: s })).data as Stored[];
      const byRow = new Map(after.map((x) => [x.row, x]));
      expect([...byRow.keys()].sort()).toEqual(['r1', 'r2', 'r3', 'r4']);
      expect(byRow.get('r1')).toMatchObject({ name: 'named', value: 'a', revision: 2 });
      expect(byRow.get('r2')).toMatchObject({ name: 'n', value: 'b2', revision: 2 });
      expect(byRow.get('r3')).toMatchObject({ name: 'second', value: 'c2', revision: 3 });
      expect(byRow.get('r4')).toMatchObject({ name: null, value: 'new', sort: 0, revision: 1 });
      for (const old of before.data as Stored[]) {
        const now = byRow.get(old.row)!;
        expect(now).toMatchObject({
          dataDictionaryTableId: old.dataDictionaryTableId,
          createdUsername: 'alice',
          createdTime: old.createdTime,
          lastModifiedUsername: 'bob',
          tenantId: 'tenant-a',
        });
        expect(now.lastModifiedTime).toBeGreaterThanOrEqual(old.lastModifiedTime as number);
      }
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
});
