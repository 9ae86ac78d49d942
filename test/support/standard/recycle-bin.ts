/** The recycle bin: deletedPage, restoreById and purgeByIds over the logically deleted records. */
import type { Json } from '../json';
import { pick, seed } from './client';
import { expectFailure, ResourceContext, TENANT_B } from './context';

export function describeRecycleBin({ r, c, P, id, keyedIt }: ResourceContext): void {
  describe('recycle bin', () => {
    const binned = async (body: Json = {}, claims = undefined as typeof TENANT_B | undefined) => {
      const res = await c.deletedPage({ current: 1, pageSize: 1000, ...body }, claims);
      expect(res).toMatchObject({ status: 200 });
      return res;
    };
    const binnedIds = async (claims?: typeof TENANT_B) => ((await binned({}, claims)).data as Json[]).map(id);

    it('deletedPage shows a deleted record with its deleteTime, newest deletion first; restoreById brings it back everywhere', async () => {
      const [older, newer] = [await c.create(), await c.create()];
      const [liveBefore, binBefore] = [await c.count(), (await binned()).extraData.total as number];
      expect(await c.removeById(id(older))).toMatchObject({ data: true });
      expect(await c.removeById(id(newer))).toMatchObject({ data: true });

      const bin = await binned();
      expect(bin.extraData).toMatchObject({ current: 1, size: 1000, total: binBefore + 2 });
      const ids = (bin.data as Json[]).map(id);
      expect(ids.indexOf(id(newer))).toBeLessThan(ids.indexOf(id(older)));
      expect(ids.indexOf(id(newer))).toBeGreaterThanOrEqual(0);
      const shown = (bin.data as Json[]).find((x) => id(x) === id(older))!;
      expect(shown).toMatchObject({ ...pick(older, [r.idField, ...r.keyFields]), revision: older.revision });
      expect(shown.deleteTime).toEqual(expect.any(Number));
      expect(await c.count()).toBe(liveBefore - 2);
      // the first row of a size-1 page is the newest deletion, with the bin's total
      expect(await c.deletedPage({ current: 1, pageSize: 1 })).toMatchObject({ extraData: { total: binBefore + 2, pages: binBefore + 2 } });

      expect(await c.restoreById(id(older))).toMatchObject({ status: 200, error: null, data: true, path: null });
      expect(await c.stored(id(older))).toEqual({
        ...older,
        revision: older.revision + 1,
        lastModifiedTime: expect.any(Number),
        lastModifiedUsername: expect.any(String),
        deleteTime: null,
      });
      expect(await c.count()).toBe(liveBefore - 1);
      expect((await c.page({ current: 1, pageSize: 1000 })).data.map(id)).toContain(id(older));
      expect(await binnedIds()).not.toContain(id(older));
      expect((await binned()).extraData.total).toBe(binBefore + 1);
      // a live record is not in the bin: restoring it again finds nothing
      expect(await c.restoreById(id(older))).toMatchObject({ status: 200, data: false });
      expect(await c.restoreById('NoSuchRecord1')).toMatchObject({ status: 200, data: false });
    });

    keyedIt('restoreById of a record whose key is live again → 422 with the exists-text; nothing changes', async () => {
      const body = r.sample(seed());
      const old = await c.create(undefined, body);
      expect(await c.removeById(id(old))).toMatchObject({ data: true });
      const renewed = await c.create(undefined, body);
      const count = await c.count();
      const res = await c.restoreById(id(old));
      expect(res).toMatchObject({ httpStatus: 200, status: 422, error: r.uniqueKeyText, path: `${P}/restoreById`, data: null });
      expect(await c.getById(id(old))).toMatchObject({ data: null });
      expect(await binnedIds()).toContain(id(old));
      expect(await c.stored(id(renewed))).toEqual(renewed);
      expect(await c.count()).toBe(count);
      // once the key is free again, the old record comes back
      expect(await c.removeById(id(renewed))).toMatchObject({ data: true });
      expect(await c.restoreById(id(old))).toMatchObject({ status: 200, data: true });
    });

    it('purgeByIds removes deleted records for good and never touches a live one', async () => {
      const [live, gone] = [await c.create(), await c.create()];
      expect(await c.removeById(id(gone))).toMatchObject({ data: true });
      const binBefore = (await binned()).extraData.total as number;

      expect(await c.purgeByIds([id(live)])).toMatchObject({ status: 200, data: false });
      expect(await c.stored(id(live))).toEqual(live);
      expect(await c.purgeByIds([id(gone), id(live), 'NoSuchRecord1'])).toMatchObject({ status: 200, error: null, data: true });
      expect(await c.stored(id(live))).toEqual(live);
      expect(await binnedIds()).not.toContain(id(gone));
      expect((await binned()).extraData.total).toBe(binBefore - 1);
      expect(await c.restoreById(id(gone))).toMatchObject({ status: 200, data: false });
      expect(await c.purgeByIds([id(gone)])).toMatchObject({ status: 200, data: false });
    });

    it('another tenant’s deleted records are out of reach: not listed, not restored, not purged', async () => {
      const rec = await c.create();
      expect(await c.removeById(id(rec))).toMatchObject({ data: true });
      const binB = await binned({}, TENANT_B);
      expect((binB.data as Json[]).map(id)).not.toContain(id(rec));
      expect((binB.data as Json[]).every((x) => x.tenantId === 'tenant-b')).toBe(true);
      expect(await c.restoreById(id(rec), TENANT_B)).toMatchObject({ status: 200, data: false });
      expect(await c.purgeByIds([id(rec)], TENANT_B)).toMatchObject({ status: 200, data: false });
      expect(await binnedIds()).toContain(id(rec));
    });

    it('deletedPage filters as page does, and a sort by an unknown field is a 400', async () => {
      const body = r.sample(seed());
      const rec = await c.create(undefined, body);
      expect(await c.removeById(id(rec))).toMatchObject({ data: true });
      const filtered = await binned(pick(body, r.filterFields));
      expect((filtered.data as Json[]).map(id)).toContain(id(rec));
      expect(filtered.extraData.total).toBe((filtered.data as Json[]).length);
      expectFailure(await c.deletedPage({ current: 1, pageSize: 10, sqlQuerySorter: { field: 'noSuchField' } }), 400, `${P}/deletedPage`);
      const byDeletion = await c.deletedPage({ current: 1, pageSize: 1000, sqlQuerySorter: { field: 'deleteTime', order: 'ascend' } });
      const times = (byDeletion.data as Json[]).map((x) => x.deleteTime as number);
      expect(times).toEqual([...times].sort((a, b) => a - b));
    });

    it(`purgeByIds with more than 1000 ids → 400; nothing is removed`, async () => {
      const rec = await c.create();
      expect(await c.removeById(id(rec))).toMatchObject({ data: true });
      const ids = [id(rec), ...Array.from({ length: 1000 }, (_, i) => `Id${i}`)];
      expectFailure(await c.purgeByIds(ids), 400, `${P}/purgeByIds`, 'ids');
      expect(await binnedIds()).toContain(id(rec));
    });
  });
}
