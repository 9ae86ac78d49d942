/** save, getById, updateById and removeById of one record, as the contract shows them. */
import type { Json } from '../json';
import { pick, seed } from './client';
import { expectFailure, ResourceContext } from './context';

export function describeRoundTrip({ r, c, P, id, v, readable }: ResourceContext): void {
  describe('round trip', () => {
    it('save → list/page/getById show the record with server fields → updateById → count', async () => {
      const s = seed();
      const body = r.sample(s);
      const countBefore = await c.count();
      const before = Date.now();

      const saved = await c.save(body);
      // the HTTP status of a successful POST is checked on its own below
      expect(saved).toEqual({
        timestamp: expect.any(Number),
        status: 200,
        error: null,
        localizedError: null,
        path: null,
        extraData: {},
        data: true,
        httpStatus: saved.httpStatus,
      });

      const rec = await c.find(body);
      expect(rec).toMatchObject({
        ...readable(body),
        tenantId: 'tenant-a',
        revision: 1,
        createdUsername: 'alice',
        lastModifiedUsername: 'alice',
        deleteTime: null,
      });
      expect(id(rec!)).toMatch(/^[0-9A-Za-z]{21}$/);
      expect(typeof rec!.createdTime).toBe('number');
      expect(typeof rec!.lastModifiedTime).toBe('number');
      expect(rec!.createdTime).toBeGreaterThanOrEqual(before);
      expect(rec!.createdTime).toBeLessThanOrEqual(Date.now());
      expect(rec!.lastModifiedTime).toBe(rec!.createdTime);

      const got = await c.getById(id(rec!));
      expect(got).toMatchObject({ status: 200, error: null, extraData: {} });
      expect(got.data).toEqual(rec);

      const paged = await c.page({ ...pick(body, r.filterFields), current: 1, pageSize: 10 });
      expect(paged.status).toBe(200);
      expect(paged.extraData).toEqual({ current: 1, pages: 1, size: 10, total: 1 });
      expect(paged.data).toEqual([rec]);
      expect(await c.count()).toBe(countBefore + 1);

      const newValue = v(`updated-${s}`);
      const updated = await c.update({ [r.idField]: id(rec!), [r.updateField]: newValue }, { sub: 'bob' });
      expect(updated).toEqual({
        timestamp: expect.any(Number),
        status: 200,
        error: null,
        localizedError: null,
        path: null,
        extraData: {},
        data: true,
        httpStatus: 200,
      });
      const after = await c.stored(id(rec!));
      expect(after).toEqual({
        ...rec,
        [r.updateField]: newValue,
        revision: 2,
        lastModifiedUsername: 'bob',
        lastModifiedTime: expect.any(Number),
      });
      expect(after!.lastModifiedTime).toBeGreaterThanOrEqual(rec!.lastModifiedTime);
      expect(await c.count()).toBe(countBefore + 1);
    });

    it('every successful standard operation answers HTTP 200 (contract.md "The envelope"), POSTs included', async () => {
      const body = r.sample(seed());
      const saved = await c.save(body);
      const rec = await c.find(body);
      const other = await c.create();
      const results: Record<string, Json> = {
        save: saved,
        count: await c.countRaw({}),
        list: await c.list({}),
        page: await c.page({ current: 1, pageSize: 10 }),
        getById: await c.getById(id(rec!)),
        updateById: await c.update({ [r.idField]: id(rec!), [r.updateField]: v('x') }),
        removeById: await c.removeById(id(rec!)),
        removeByIds: await c.removeByIds([id(other)]),
      };
      const statuses = Object.fromEntries(Object.entries(results).map(([op, res]) => [op, [res.httpStatus, res.status]]));
      expect(statuses).toEqual(Object.fromEntries(Object.keys(results).map((op) => [op, [200, 200]])));
    });

    it(`updateById with null keeps ${r.updateField} (null means "not given"); updating an unknown id gives data false`, async () => {
      const rec = await c.create();
      expect(rec[r.updateField]).not.toBeNull();
      expect(await c.update({ [r.idField]: id(rec), [r.updateField]: null, revision: null })).toMatchObject({
        status: 200,
        data: true,
      });
      expect(await c.stored(id(rec))).toMatchObject({ [r.updateField]: rec[r.updateField] });
      expect(await c.update({ [r.idField]: 'NoSuchRecord0000000000', [r.updateField]: v('x') })).toMatchObject({
        status: 200,
        data: false,
      });
    });

    it('keeps a client-supplied identifier; an identifier already used is a duplicate (422)', async () => {
      const clientId = `cid${seed()}X9`;
      expect(await c.save({ ...r.sample(seed()), [r.idField]: clientId })).toMatchObject({ status: 200, data: true });
      expect(await c.stored(clientId)).toMatchObject({ [r.idField]: clientId, revision: 1 });
      const countBefore = await c.count();
      expectFailure(await c.save({ ...r.sample(seed()), [r.idField]: clientId }), 422, `${P}/save`);
      expect(await c.count()).toBe(countBefore);
    });
  });
}
