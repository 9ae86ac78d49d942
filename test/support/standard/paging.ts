/** page and list: paging, and the bounds PAGE_SIZE_MAX and LIST_LIMIT_MAX (the app with small bounds). */
import type { Json } from '../json';
import { client } from './client';
import { expectFailure, LIMITS, ResourceContext } from './context';

export function describePaging({ r, c, P, id, limitedApp }: ResourceContext): void {
  describe('paging', () => {
    it('echoes current and pageSize; pages = ceil(total / pageSize); the pages cover every record once', async () => {
      for (let i = 0; i < 7; i++) await c.create();
      const total = await c.count();
      expect(total).toBeGreaterThanOrEqual(7);
      const pages = Math.ceil(total / 3);

      const second = await c.page({ current: 2, pageSize: 3 });
      expect(second).toMatchObject({ status: 200 });
      expect(second.extraData).toEqual({ current: 2, pages, size: 3, total });
      expect(second.data).toHaveLength(3);

      const seen: string[] = [];
      for (let current = 1; current <= pages; current++) {
        const res = await c.page({ current, pageSize: 3 });
        expect(res.extraData).toEqual({ current, pages, size: 3, total });
        expect(res.data).toHaveLength(current < pages ? 3 : total - (pages - 1) * 3);
        seen.push(...(res.data as Json[]).map(id));
      }
      expect(new Set(seen).size).toBe(total);

      const beyond = await c.page({ current: pages + 1, pageSize: 3 });
      expect(beyond.data).toEqual([]);
      expect(beyond.extraData).toEqual({ current: pages + 1, pages, size: 3, total });
    });

    it('pageSize 0 (or omitted) returns no rows but counts total, with pages 0; no match is an empty success', async () => {
      await c.create();
      const total = await c.count();
      expect(total).toBeGreaterThan(0);
      const zero = await c.page({ current: 1, pageSize: 0 });
      expect(zero).toMatchObject({ status: 200, data: [] });
      expect(zero.extraData).toEqual({ current: 1, pages: 0, size: 0, total });
      const omitted = await c.page({});
      expect(omitted).toMatchObject({ status: 200, data: [] });
      expect(omitted.extraData).toEqual({ current: 0, pages: 0, size: 0, total });
      const none = await c.page({ [r.filterFields[0]]: r.noMatch ?? 'no-such-value', current: 1, pageSize: 10 });
      expect(none).toMatchObject({ status: 200, error: null, data: [] });
      expect(none.extraData).toEqual({ current: 1, pages: 0, size: 10, total: 0 });
    });

    it('current 0 reads the first page and is echoed as 0', async () => {
      await c.create();
      await c.create();
      const first = await c.page({ current: 1, pageSize: 2 });
      const zero = await c.page({ current: 0, pageSize: 2 });
      expect(zero.status).toBe(200);
      expect(zero.data).toHaveLength(2);
      expect(zero.data).toEqual(first.data);
      expect(zero.extraData).toEqual({ ...first.extraData, current: 0 });
    });

    it('negative current or pageSize, or pageSize above PAGE_SIZE_MAX (default 1000), gives 400', async () => {
      expectFailure(await c.page({ current: -1, pageSize: 10 }), 400, `${P}/page`, 'current');
      expectFailure(await c.page({ current: 1, pageSize: -10 }), 400, `${P}/page`, 'pageSize');
      expectFailure(await c.page({ current: 1, pageSize: 1001 }), 400, `${P}/page`, 'pageSize');
      expect(await c.page({ current: 1, pageSize: 1000 })).toMatchObject({ status: 200 });
    });

    it('sqlQueryLimit bounds list; 0 gives no rows; negative gives 400', async () => {
      await c.create();
      await c.create();
      await c.create();
      expect(await c.count()).toBeGreaterThan(2);
      expect((await c.list({ sqlQueryLimit: 2 })).data).toHaveLength(2);
      expect(await c.list({ sqlQueryLimit: 0 })).toMatchObject({ status: 200, data: [] });
      expectFailure(await c.list({ sqlQueryLimit: -1 }), 400, `${P}/list`, 'sqlQueryLimit');
    });

    describe(`bounds (PAGE_SIZE_MAX ${LIMITS.PAGE_SIZE_MAX}, LIST_LIMIT_MAX ${LIMITS.LIST_LIMIT_MAX})`, () => {
      const small = client(limitedApp, r);
      beforeAll(async () => {
        for (let i = 0; i < 6; i++) await small.create();
      });

      it('pageSize up to PAGE_SIZE_MAX pages; above it gives 400', async () => {
        const total = await small.count();
        expect(total).toBeGreaterThanOrEqual(6);
        const ok = await small.page({ current: 1, pageSize: 5 });
        expect(ok).toMatchObject({ status: 200 });
        expect(ok.data).toHaveLength(5);
        expect(ok.extraData).toEqual({ current: 1, pages: Math.ceil(total / 5), size: 5, total });
        expectFailure(await small.page({ current: 1, pageSize: 6 }), 400, `${P}/page`, 'pageSize');
      });

      it('list returns at most LIST_LIMIT_MAX rows whatever sqlQueryLimit says', async () => {
        expect(await small.count()).toBeGreaterThan(3);
        expect((await small.list({})).data).toHaveLength(3);
        expect((await small.list({ sqlQueryLimit: 100 })).data).toHaveLength(3);
        expect((await small.list({ sqlQueryLimit: 2147483647 })).data).toHaveLength(3);
        expect((await small.list({ sqlQueryLimit: 2 })).data).toHaveLength(2);
      });
    });
  });
}
