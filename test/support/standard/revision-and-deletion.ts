/** updateById with a stale revision, and logical deletion (removeById, removeByIds). */
import { pick, seed } from './client';
import { expectFailure, ResourceContext } from './context';

export function describeRevisionAndDeletion({ r, c, P, id, v, keyedIt }: ResourceContext): void {
  describe('optimistic revision', () => {
    it('updateById with the stored revision succeeds; a stale revision gives 409 and changes nothing', async () => {
      const rec = await c.create();
      expect(await c.update({ [r.idField]: id(rec), revision: 1, [r.updateField]: v('first') })).toMatchObject({
        status: 200,
        data: true,
      });
      const first = await c.stored(id(rec));
      expect(first).toMatchObject({ revision: 2, [r.updateField]: v('first') });

      for (const stale of [1, 3, 99]) {
        const res = await c.update({ [r.idField]: id(rec), revision: stale, [r.updateField]: v('lost update') });
        expectFailure(res, 409, `${P}/updateById`);
        expect(await c.stored(id(rec))).toEqual(first);
      }
      expect(await c.update({ [r.idField]: id(rec), revision: 2, [r.updateField]: v('second') })).toMatchObject({
        status: 200,
        data: true,
      });
      expect(await c.stored(id(rec))).toMatchObject({ revision: 3, [r.updateField]: v('second') });
    });
  });

  describe('logical deletion', () => {
    it('removeById hides the record from every read and write', async () => {
      const body = r.sample(seed());
      const rec = await c.create(undefined, body);
      const countBefore = await c.count();

      expect(await c.removeById(id(rec))).toEqual({
        timestamp: expect.any(Number),
        status: 200,
        error: null,
        localizedError: null,
        path: null,
        extraData: {},
        data: true,
        httpStatus: 200,
      });
      expect(await c.getById(id(rec))).toMatchObject({ status: 200, data: null });
      expect(await c.find(body)).toBeUndefined();
      expect((await c.list({})).data.map(id)).not.toContain(id(rec));
      expect((await c.page({ current: 1, pageSize: 1000 })).data.map(id)).not.toContain(id(rec));
      expect(await c.count()).toBe(countBefore - 1);
      expect(await c.count(pick(body, r.filterFields))).toBe(0);

      expect(await c.update({ [r.idField]: id(rec), [r.updateField]: v('zombie') })).toMatchObject({ status: 200, data: false });
      expect(await c.update({ [r.idField]: id(rec), revision: 1, [r.updateField]: v('zombie') })).toMatchObject({
        status: 200,
        data: false,
      });
      expect(await c.removeById(id(rec))).toMatchObject({ status: 200, data: false });
      expect(await c.removeByIds([id(rec)])).toMatchObject({ status: 200, data: false });
    });

    keyedIt('a deleted record no longer blocks its key', async () => {
      const body = r.sample(seed());
      const old = await c.create(undefined, body);
      expect(await c.removeById(id(old))).toMatchObject({ data: true });
      expect(await c.save(body)).toMatchObject({ status: 200, data: true });
      const renewed = await c.find(body);
      expect(id(renewed!)).not.toBe(id(old));
      expect(renewed).toMatchObject({ revision: 1, deleteTime: null });
      expect(await c.getById(id(old))).toMatchObject({ data: null });

      // updateById onto the key of a deleted record is allowed too
      const gone = await c.create();
      const mover = await c.create();
      expect(await c.removeById(id(gone))).toMatchObject({ data: true });
      expect(await c.update({ [r.idField]: id(mover), ...pick(gone, r.keyFields) })).toMatchObject({ status: 200, data: true });
      expect(await c.stored(id(mover))).toMatchObject(pick(gone, r.keyFields));
    });

    it('removeByIds with repeated ids: true when the batch hits, false (no error) when nothing matches', async () => {
      const [a, b, d] = [await c.create(), await c.create(), await c.create()];
      const countBefore = await c.count();
      expect(await c.removeByIds([id(a), id(b)])).toMatchObject({ status: 200, extraData: {}, data: true });
      expect(await c.getById(id(a))).toMatchObject({ data: null });
      expect(await c.getById(id(b))).toMatchObject({ data: null });
      expect(await c.stored(id(d))).toEqual(d);
      expect(await c.count()).toBe(countBefore - 2);

      expect(await c.removeByIds([id(d), 'NoSuchRecord1'])).toMatchObject({ status: 200, data: true });
      expect(await c.getById(id(d))).toMatchObject({ data: null });
      expect(await c.removeByIds(['NoSuchRecord1', 'NoSuchRecord2'])).toMatchObject({ status: 200, error: null, data: false });
      expect(await c.removeByIds([id(a)])).toMatchObject({ status: 200, data: false });
      expect(await c.count()).toBe(countBefore - 3);
    });
  });
}
