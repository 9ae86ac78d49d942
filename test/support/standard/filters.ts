/** count, list and page: exact-match filters, sorting, and the time range of the main time field. */
import type { Json } from '../json';
import { pick, seed } from './client';
import { expectFailure, otherFilterValue, ResourceContext, sortedCopy } from './context';

export function describeFilters({ r, c, P, id, hasKey, getOp }: ResourceContext): void {
  describe('filters and sorting', () => {
    it.each(r.filterFields)('filter %s is an exact match', async (f) => {
      const a = r.sample(seed());
      const alternative = otherFilterValue(r, f, a);
      // a keyed resource needs another key unless the filter is part of it
      const b = hasKey && !r.keyFields.includes(f) ? { ...r.sample(seed()), [f]: alternative } : { ...a, [f]: alternative };
      const recA = await c.create(undefined, a);
      const recB = await c.create(undefined, b);

      const res = await c.list({ [f]: a[f] });
      expect(res.status).toBe(200);
      const ids = (res.data as Json[]).map(id);
      expect(ids).toContain(id(recA));
      expect(ids).not.toContain(id(recB));
      expect((res.data as Json[]).every((x) => x[f] === a[f])).toBe(true);
      expect(await c.count({ [f]: a[f] })).toBe(ids.length);
      const paged = await c.page({ [f]: a[f], current: 1, pageSize: 1000 });
      expect(paged.extraData.total).toBe(ids.length);
      expect((paged.data as Json[]).map(id).sort()).toEqual([...ids].sort());

      const other = await c.list({ [f]: b[f] });
      expect((other.data as Json[]).map(id)).toContain(id(recB));
      expect((other.data as Json[]).map(id)).not.toContain(id(recA));
      if (typeof a[f] === 'string' && !(f in (r.filterAlternatives ?? {}))) {
        // not a prefix / LIKE match
        const prefix = await c.list({ [f]: a[f].slice(0, -1) });
        expect((prefix.data as Json[]).map(id)).not.toContain(id(recA));
        expect(await c.count({ [f]: a[f].slice(0, -1) })).toBe((prefix.data as Json[]).length);
      }
    });

    it('all filter fields together select exactly the record', async () => {
      const body = r.sample(seed());
      const rec = await c.create(undefined, body);
      await c.create();
      const res = await c.list(pick(body, r.filterFields));
      expect(res.data).toEqual([rec]);
      expect(await c.count(pick(body, r.filterFields))).toBe(1);
    });

    it.each(['ascend', 'descend'] as const)('sqlQuerySorter %s on a sortable field orders list and page', async (order) => {
      const seeds = [seed(), seed(), seed(), seed()];
      for (const i of [2, 0, 3, 1]) await c.create(seeds[i]); // neither ascending nor descending by creation
      const total = await c.count();
      const sorter = { field: r.sortField, order };

      const listed = await c.list({ sqlQuerySorter: sorter });
      expect(listed.status).toBe(200);
      expect(listed.data).toHaveLength(total);
      const values = (listed.data as Json[]).map((x) => x[r.sortField]);
      expect(values).toEqual(sortedCopy(values, order));

      const paged = await c.page({ sqlQuerySorter: sorter, current: 1, pageSize: 1000 });
      expect(paged.status).toBe(200);
      expect((paged.data as Json[]).map((x) => x[r.sortField])).toEqual(values);

      const byTime = await c.list({ sqlQuerySorter: { field: 'createdTime', order } });
      const times = (byTime.data as Json[]).map((x) => x.createdTime);
      expect(times).toEqual(sortedCopy(times, order));
    });

    it(`without sqlQuerySorter, list and page are ordered by ${r.defaultSort.field} ${r.defaultSort.order} (contract.md "The standard operations")`, async () => {
      const { field, order, value } = r.defaultSort;
      for (const i of [2, 0, 3, 1]) {
        const given = value(i);
        await c.create(undefined, given === undefined ? {} : { [field]: given });
      }
      const total = await c.count();
      const listed = await c.list({});
      expect(listed.data).toHaveLength(total);
      const values = (listed.data as Json[]).map((x) => x[field]);
      expect(values).toEqual(sortedCopy(values, order));
      const paged = await c.page({ current: 1, pageSize: 1000 });
      expect((paged.data as Json[]).map(id)).toEqual((listed.data as Json[]).map(id));
    });

    it('an unknown or non-sortable sort field, or an unknown order, gives 400', async () => {
      for (const field of ['noSuchField', 'tenantId', 'createdTime; DROP TABLE x']) {
        expectFailure(await c.list({ sqlQuerySorter: { field, order: 'ascend' } }), 400, `${P}/list`, 'sqlQuerySorter');
        expectFailure(
          await c.page({ sqlQuerySorter: { field, order: 'descend' }, current: 1, pageSize: 10 }),
          400,
          `${P}/page`,
          'sqlQuerySorter',
        );
      }
      expectFailure(await c.list({ sqlQuerySorter: { field: r.sortField, order: 'up' } }), 400, `${P}/list`, 'order');
    });
  });

  if (r.timeRange)
    describe(`time range ${r.timeRange.field}Start / End (contract.md "The standard operations")`, () => {
      const field = r.timeRange?.field ?? '';
      const [start, end] = [`${field}Start`, `${field}End`];
      const f0 = r.filterFields[0];
      /** Three records of one seed at T, T+1s and T+2s (T after every sample time, distinct per seed). */
      async function three() {
        const s = seed();
        // 2026-06-01 on: after every sample time, and past, as the times of what happened must be (Field.time past)
        const base = 1780272000000 + Number(s.slice(1)) * 10_000; // the seed's number
        const recs: Json[] = [];
        // a keyed resource gets a distinct key per record, in a key field other than the filter
        const keyVariant = r.keyFields.find((k) => k !== f0);
        for (const k of [0, 1, 2])
          recs.push(
            await c.create(s, {
              [field]: base + k * 1000,
              ...(keyVariant ? { [keyVariant]: `${String(r.sample(s)[keyVariant])}${k}` } : {}),
            }),
          );
        return { base, ids: recs.map(id), filter: { [f0]: r.sample(s)[f0] } };
      }
      const idsOf = async (body: Json): Promise<string[]> => {
        const res = await c.list(body);
        expect(res.status).toBe(200);
        return (res.data as Json[]).map(id).sort();
      };

      it(`${field}Start alone, ${field}End alone and both bound the records inclusively, on list, page and count`, async () => {
        const { base, ids, filter } = await three();
        const cases: [Json, string[]][] = [
          [{ [start]: base + 1000 }, [ids[1], ids[2]]],
          [{ [end]: base + 1000 }, [ids[0], ids[1]]],
          [{ [start]: base + 1000, [end]: base + 1000 }, [ids[1]]],
          [{ [start]: base, [end]: base + 2000 }, ids],
          [{ [start]: base + 1, [end]: base + 999 }, []],
          [{ [start]: base + 2001 }, []],
        ];
        for (const [range, expected] of cases) {
          const body = { ...filter, ...range };
          expect({ range, ids: await idsOf(body) }).toEqual({ range, ids: [...expected].sort() });
          expect({ range, count: await c.count(body) }).toEqual({ range, count: expected.length });
          const paged = await c.page({ ...body, current: 1, pageSize: 10 });
          expect({ range, ids: (paged.data as Json[]).map(id).sort(), total: paged.extraData.total }).toEqual({
            range,
            ids: [...expected].sort(),
            total: expected.length,
          });
        }
        // without the exact filter the range alone selects them too (the range is after every sample time)
        expect(await idsOf({ [start]: base, [end]: base + 2000 })).toEqual([...ids].sort());
      });

      it(`${field}Start greater than ${field}End → 400 naming both; equal bounds are fine`, async () => {
        for (const op of ['count', 'list', 'page'] as const) {
          const res = await getOp(op)({
            [start]: 2000,
            [end]: 1000,
            current: op === 'page' ? 1 : undefined,
            pageSize: op === 'page' ? 10 : undefined,
          });
          expectFailure(res, 400, `${P}/${op}`, start);
          expect(res.error).toContain(end);
        }
        expect(await c.count({ [start]: 1000, [end]: 1000 })).toBe(0);
      });

      it('a bound of the wrong type → 1003 naming it; a negative or fractional bound is refused', async () => {
        for (const op of ['count', 'list', 'page'] as const) {
          expectFailure(await getOp(op)({ [start]: 'yesterday' }), 1003, `${P}/${op}`, start);
          expectFailure(await getOp(op)({ [end]: '1767225600000' }), 1003, `${P}/${op}`, end);
          expectFailure(await getOp(op)({ [start]: -1 }), 400, `${P}/${op}`, start);
        }
        expect((await c.countRaw({ [end]: 1.5 })).status).not.toBe(200);
      });
    });
}
