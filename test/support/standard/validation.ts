/** Required query parameters, and the validation of save and updateById bodies. */
import { pick, seed } from './client';
import { expectFailure, ResourceContext, withoutNulls } from './context';

export function describeValidation({ r, c, P, id, v, typedField, textField, invalidCases, app }: ResourceContext): void {
  describe('required query parameters', () => {
    it('getById, removeById without id or with an empty id, and removeByIds without ids → 1002', async () => {
      const rec = await c.create();
      const countBefore = await c.count();
      expectFailure(await app().get(`${P}/getById`), 1002, `${P}/getById`, 'id');
      expectFailure(await app().get(`${P}/getById?id=`), 1002, `${P}/getById`, 'id');
      expectFailure(await app().del(`${P}/removeById`), 1002, `${P}/removeById`, 'id');
      expectFailure(await app().del(`${P}/removeById?id=`), 1002, `${P}/removeById`, 'id');
      expectFailure(await app().del(`${P}/removeByIds`), 1002, `${P}/removeByIds`, 'ids');
      expectFailure(await app().del(`${P}/removeByIds?ids=`), 1002, `${P}/removeByIds`, 'ids');
      expect(await c.count()).toBe(countBefore);
      expect(await c.stored(id(rec))).toEqual(rec);
    });
  });

  describe('body validation', () => {
    it.each(r.requiredFields)('save with %s missing → 400 naming it; nothing is written', async (k) => {
      const countBefore = await c.count();
      const body = r.sample(seed());
      const { [k]: _dropped, ...missing } = body;
      expectFailure(await c.save(missing), 400, `${P}/save`, k);
      expect(await c.count()).toBe(countBefore);
    });

    it.each(r.requiredFields.filter((f) => typeof r.sample('x')[f] === 'string'))(
      'save with %s empty or blank → 400 naming it; nothing is written',
      async (k) => {
        const countBefore = await c.count();
        const body = r.sample(seed());
        expectFailure(await c.save({ ...body, [k]: '' }), 400, `${P}/save`, k);
        expectFailure(await c.save({ ...body, [k]: '   ' }), 400, `${P}/save`, k);
        expect(await c.count()).toBe(countBefore);
        expect(await c.find(body)).toBeUndefined();
      },
    );

    it(`${r.maxLength.field} longer than ${r.maxLength.max} → 400 on save and updateById; exactly ${r.maxLength.max} is accepted`, async () => {
      const { field, max } = r.maxLength;
      const rec = await c.create();
      const countBefore = await c.count();
      const s = seed();
      const tooLong = s.padEnd(max + 1, 'x');
      expectFailure(await c.save({ ...r.sample(s), [field]: tooLong }), 400, `${P}/save`, field);
      expectFailure(await c.update({ [r.idField]: id(rec), [field]: tooLong }), 400, `${P}/updateById`, field);
      expect(await c.count()).toBe(countBefore);
      expect(await c.stored(id(rec))).toEqual(rec);
      const longest = await c.create(s, { [field]: s.padEnd(max, 'x') });
      expect(longest[field]).toHaveLength(max);
    });

    it('a value of the wrong type → 1003; nothing is written', async () => {
      const rec = await c.create();
      const countBefore = await c.count();
      const body = r.sample(seed());
      expectFailure(await c.save({ ...body, [typedField]: 'x' }), 1003, `${P}/save`, typedField);
      expectFailure(await c.save({ ...body, [textField]: 5 }), 1003, `${P}/save`, textField);
      expectFailure(await c.update({ [r.idField]: id(rec), [typedField]: 'x' }), 1003, `${P}/updateById`, typedField);
      expectFailure(await c.update({ [r.idField]: id(rec), [textField]: 5 }), 1003, `${P}/updateById`, textField);
      expectFailure(await c.update({ [r.idField]: id(rec), revision: '1' }), 1003, `${P}/updateById`, 'revision');
      expectFailure(await c.countRaw({ [r.filterFields[0]]: 5 }), 1003, `${P}/count`, r.filterFields[0]);
      expectFailure(await c.page({ current: '1', pageSize: 10 }), 1003, `${P}/page`, 'current');
      expectFailure(await c.list({ sqlQueryLimit: '10' }), 1003, `${P}/list`, 'sqlQueryLimit');
      expect(await c.count()).toBe(countBefore);
      expect(await c.stored(id(rec))).toEqual(rec);
    });

    it.each(invalidCases.map((x) => ({ ...x, status: x.status ?? 400 })))(
      '$why → $status naming $field on save and updateById; nothing is written',
      async ({ patch, field, status }) => {
        const rec = await c.create();
        const countBefore = await c.count();
        expectFailure(await c.save({ ...r.sample(seed()), ...patch }), status, `${P}/save`, field);
        expectFailure(await c.update({ [r.idField]: id(rec), ...patch }), status, `${P}/updateById`, field);
        expect(await c.count()).toBe(countBefore);
        expect(await c.stored(id(rec))).toEqual(rec);
      },
    );

    if (r.validEdges?.length)
      it.each(r.validEdges)('$why is accepted on save and updateById and stored as given (null: not given)', async ({ patch }) => {
        // on save, a null in the patch removes the sample's value; on update, it keeps the stored one
        const given = withoutNulls(patch);
        const rec = await c.create(undefined, patch);
        expect(rec).toMatchObject(given);
        const other = await c.create(
          undefined,
          Object.fromEntries(
            Object.keys(patch)
              .filter((k) => patch[k] === null)
              .map((k) => [k, null]),
          ),
        );
        expect(await c.update({ [r.idField]: id(other), ...patch })).toMatchObject({ status: 200, data: true });
        expect(await c.stored(id(other))).toMatchObject({
          ...given,
          ...pick(
            other,
            Object.keys(patch).filter((k) => patch[k] === null),
          ),
          revision: 2,
        });
      });

    it('updateById without the identifier → 400 naming it; nothing changes', async () => {
      const rec = await c.create();
      expectFailure(await c.update({ [r.updateField]: v('changed') }), 400, `${P}/updateById`, r.idField);
      expect(await c.stored(id(rec))).toEqual(rec);
    });

    it('updateById with an empty identifier → 400 naming it; nothing changes', async () => {
      const rec = await c.create();
      expectFailure(await c.update({ [r.idField]: '', [r.updateField]: v('changed') }), 400, `${P}/updateById`, r.idField);
      expect(await c.stored(id(rec))).toEqual(rec);
    });

    it('null for a required field: save → 400 naming it as missing; updateById keeps the stored value', async () => {
      const rec = await c.create();
      const countBefore = await c.count();
      for (const field of r.requiredFields) expectFailure(await c.save({ ...r.sample(seed()), [field]: null }), 400, `${P}/save`, field);
      expect(await c.count()).toBe(countBefore);
      const fields = [...new Set([...r.requiredFields, typedField])].filter((field) => field !== r.updateField);
      const nulls = Object.fromEntries(fields.map((field) => [field, null]));
      expect(await c.update({ [r.idField]: id(rec), [r.updateField]: v('changed'), ...nulls })).toMatchObject({
        status: 200,
        data: true,
      });
      expect(await c.stored(id(rec))).toMatchObject({ ...pick(rec, fields), [r.updateField]: v('changed') });
    });

    it('a malformed JSON body → 1004; nothing is written', async () => {
      const countBefore = await c.count();
      const res = await app()
        .http()
        .post(`${P}/save`)
        .set('Authorization', app().auth())
        .set('Content-Type', 'application/json')
        .send('{"broken": ');
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ status: 1004, path: `${P}/save`, data: null });
      expect(await c.count()).toBe(countBefore);
    });
  });
}
