/** save and updateById against the business key: duplicates refused, a deleted record's key free again. */
import { pick, seed } from './client';
import { expectFailure, ResourceContext } from './context';

export function describeDuplicates({ r, c, P, id, v, hasKey, lastKey }: ResourceContext): void {
  if (hasKey)
    describe('duplicates', () => {
      it(`save of a live key → HTTP 200, status 422 "${r.uniqueKeyText}"; nothing is written`, async () => {
        const s = seed();
        await c.create(s);
        const countBefore = await c.count();
        const again = await c.save({ ...r.sample(s), [r.updateField]: v('another value') });
        expect(again).toEqual({
          timestamp: expect.any(Number),
          status: 422,
          error: r.uniqueKeyText,
          localizedError: r.uniqueKeyText,
          path: `${P}/save`,
          extraData: {},
          data: null,
          httpStatus: 200,
        });
        expect(await c.count()).toBe(countBefore);
      });

      it.each(r.keyFields)('a key differing only in %s is not a duplicate', async (k) => {
        const body = r.sample(seed());
        await c.create(undefined, body);
        const other = await c.create(undefined, { ...body, [k]: `${body[k]}2` });
        expect(other[k]).toBe(`${body[k]}2`);
      });

      it('keys differing only by case are not duplicates', async () => {
        const body = r.sample(seed());
        const lower = await c.create(undefined, body);
        const upper = await c.create(undefined, { ...body, [lastKey]: String(body[lastKey]).toUpperCase() });
        expect(id(upper)).not.toBe(id(lower));
        expect(upper[lastKey]).toBe(String(body[lastKey]).toUpperCase());
        expect(lower[lastKey]).toBe(body[lastKey]);
      });

      it.each(r.keyFields)('%s with leading or trailing whitespace is refused (400) on save and updateById', async (k) => {
        const body = r.sample(seed());
        const rec = await c.create();
        const countBefore = await c.count();
        for (const value of [` ${body[k]}`, `${body[k]} `, `${body[k]}\t`]) {
          expectFailure(await c.save({ ...body, [k]: value }), 400, `${P}/save`, k);
          expectFailure(await c.update({ [r.idField]: id(rec), [k]: value }), 400, `${P}/updateById`, k);
        }
        expect(await c.count()).toBe(countBefore);
        expect(await c.stored(id(rec))).toEqual(rec);
      });

      it('updateById onto another record’s key → 422; onto its own key → true', async () => {
        const a = await c.create();
        const b = await c.create();
        const res = await c.update({ [r.idField]: id(b), ...pick(a, r.keyFields) });
        expect(res).toMatchObject({ httpStatus: 200, status: 422, error: r.uniqueKeyText, path: `${P}/updateById`, data: null });
        expect(await c.stored(id(b))).toEqual(b);
        expect(await c.update({ [r.idField]: id(b), ...pick(b, r.keyFields), [r.updateField]: v('same key') })).toMatchObject({
          status: 200,
          data: true,
        });
      });

      it('5 concurrent saves of one key: exactly one succeeds, the others get 422', async () => {
        const body = r.sample(seed());
        const countBefore = await c.count();
        const results = await Promise.all(Array.from({ length: 5 }, () => c.save(body)));
        expect(results.filter((x) => x.status === 200 && x.data === true)).toHaveLength(1);
        const refused = results.filter((x) => x.status !== 200);
        expect(refused).toHaveLength(4);
        for (const x of refused) expect(x).toMatchObject({ httpStatus: 200, status: 422, error: r.uniqueKeyText, data: null });
        expect(await c.count()).toBe(countBefore + 1);
      });
    });
}
