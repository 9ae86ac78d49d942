/**
 * The 8 standard operations (count, getById, list, page, removeById, removeByIds, save, updateById)
 * of every standard resource of one group, driven by its table (test/support/tables/*, rows typed by
 * test/support/resource-table.ts). One thin spec file per group calls describeStandardCrud, so the
 * groups run in parallel on Jest's workers. Per file: one app for the group (each resource has its
 * own table) plus one app with small bounds.
 * Expected behaviour: docs/contract.md and docs/decisions.md.
 */
import { isDeepStrictEqual } from 'node:util';
import { ResourceSpec, SampleRecord, updateValueOf } from './resource-table';
import { ALL_RESOURCES, GROUPS } from './tables';
import { startApp, TestApp } from './test-app';
import { Claims } from './tokens';
import type { Json } from './json';
import { answerSchema } from './openapi-walk';

const LIMITS = { PAGE_SIZE_MAX: '5', LIST_LIMIT_MAX: '3' };
const TENANT_B: Claims = { tenantId: 'tenant-b', sub: 'bert' };

/** Seeds in creation order are also in ascending string order (s001 < s002 < ...). */
let counter = 0;
export const seed = (): string => `s${String(++counter).padStart(3, '0')}`;

const pick = (o: Json, fields: string[]): Json => Object.fromEntries(fields.filter((f) => o[f] !== undefined).map((f) => [f, o[f]]));
const withoutNulls = (o: Json): Json => Object.fromEntries(Object.entries(o).filter(([, value]) => value !== null));
const query = (name: string, values: string[]): string => values.map((v) => `${name}=${encodeURIComponent(v)}`).join('&');
const sortedCopy = (values: unknown[], order: 'ascend' | 'descend'): unknown[] => {
  const copy = [...values].sort((a, b) => (a === b ? 0 : (a as never) < (b as never) ? -1 : 1));
  return order === 'ascend' ? copy : copy.reverse();
};

/** Operations of one resource against one running app. */
export function client(getApp: () => TestApp, r: ResourceSpec) {
  const P = `${r.prefix}/${r.segment}`;
  const api = {
    P,
    save: (body: unknown, claims?: Claims) => getApp().post(`${P}/save`, body, claims),
    update: (body: unknown, claims?: Claims) => getApp().put(`${P}/updateById`, body, claims),
    getById: (id: string, claims?: Claims) => getApp().get(`${P}/getById?${query('id', [id])}`, claims),
    list: (body: unknown, claims?: Claims) => getApp().post(`${P}/list`, body, claims),
    page: (body: unknown, claims?: Claims) => getApp().post(`${P}/page`, body, claims),
    countRaw: (body: unknown, claims?: Claims) => getApp().post(`${P}/count`, body, claims),
    removeById: (id: string, claims?: Claims) => getApp().del(`${P}/removeById?${query('id', [id])}`, claims),
    removeByIds: (ids: string[], claims?: Claims) => getApp().del(`${P}/removeByIds?${query('ids', ids)}`, claims),
    async count(body: Json = {}, claims?: Claims): Promise<number> {
      const res = await api.countRaw(body, claims);
      expect(res).toMatchObject({ status: 200 });
      expect(typeof res.data).toBe('number');
      return res.data as number;
    },
    /** The live record with the body's key (without a key: with every field of the body), found through list (by its string filter fields). */
    async find(body: Json, claims?: Claims): Promise<Json | undefined> {
      const res = await api.list(
        pick(
          body,
          r.filterFields.filter((f) => typeof body[f] === 'string'),
        ),
        claims,
      );
      expect(res.status).toBe(200);
      const fields = r.keyFields.length
        ? r.keyFields
        : Object.keys(body).filter((k) => !(r.writeOnly ?? []).includes(k) && k !== 'tenantId');
      return (res.data as Json[]).find((x) => fields.every((k) => isDeepStrictEqual(x[k], body[k]))); // lists (e-mail addresses) compare by value
    },
    async stored(id: string, claims?: Claims): Promise<Json | null> {
      const res = await api.getById(id, claims);
      expect(res).toMatchObject({ status: 200 });
      return res.data as Json | null;
    },
    /** Saves a sample (plus overrides) and returns the stored record. */
    async create(s: string = seed(), overrides: Json = {}, claims?: Claims): Promise<Json> {
      const body = { ...r.sample(s), ...overrides };
      const res = await api.save(body, claims);
      expect(res).toMatchObject({ status: 200, data: true });
      const found = await api.find(body, claims);
      expect(found).toBeDefined();
      return found!;
    },
  };
  return api;
}

function expectFailure(res: Json, status: number, path: string, mentions?: string): void {
  expect(res).toMatchObject({ httpStatus: 200, status, path, data: null });
  expect(typeof res.error).toBe('string');
  if (mentions) expect(res.error).toContain(mentions);
}

/** Another valid value of a filter field than the sample's (enums and booleans have a closed set). */
function otherFilterValue(r: ResourceSpec, field: string, sample: SampleRecord): unknown {
  if (r.filterAlternatives && field in r.filterAlternatives) return r.filterAlternatives[field];
  const value = sample[field];
  return typeof value === 'boolean' ? !value : `${String(value)}x`;
}

/** What a group's spec file may add to its suite: clients of the app with small bounds. */
export interface StandardCrudSuite {
  limitedClient: (r: ResourceSpec) => ReturnType<typeof client>;
}

/** Registers the standard-operation tests of the group named `groupName` (a name of GROUPS). */
export function describeStandardCrud(groupName: string): StandardCrudSuite {
  const group = GROUPS.find((g) => g.name === groupName);
  if (!group) throw new Error(`no group ${groupName} in test/support/tables`);

  /** One app with small bounds, shared by every resource of the group (each resource has its own table). */
  let limited: TestApp;
  beforeAll(async () => {
    limited = await startApp(LIMITS);
  });
  afterAll(async () => {
    await limited?.close();
  });

  describe(group.name, () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await startApp();
    });
    afterAll(async () => {
      await t?.close();
    });

    describe.each(group.resources)('$segment', (r) => {
      const c = client(() => t, r);
      const { P } = c;
      const id = (rec: Json): string => rec[r.idField];
      const v = (label: string): unknown => updateValueOf(r, label);
      const typedField = r.typedField;
      /** A body as reads show it: without its write-only fields. */
      const readable = (body: Json): Json => Object.fromEntries(Object.entries(body).filter(([k]) => !(r.writeOnly ?? []).includes(k)));
      const hasKey = r.keyFields.length > 0;
      const lastKey = r.keyFields[r.keyFields.length - 1];
      /** A required string field, for wrong-type tests. */
      const textField = r.requiredFields.find((f) => typeof r.sample('x')[f] === 'string')!;
      /** Registered only where it applies: a resource without a business key has no duplicate rules. */
      const keyedIt = (name: string, fn: () => Promise<void>) => (hasKey ? it(name, fn) : undefined);
      /** null means "not given", never an invalid value: a table row refusing a null would contradict that. */
      const invalidCases = r.invalid;
      it('has no invalid case that is only a null', () =>
        expect(invalidCases.filter((x) => Object.values(x.patch).includes(null))).toEqual([]));
      const getOp = (op: 'count' | 'list' | 'page') => (body: Json) => (op === 'count' ? c.countRaw(body) : c[op](body));

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
            const base = 1893456000000 + counter * 10_000;
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
          const small = client(() => limited, r);
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

      describe('tenant isolation', () => {
        it('another tenant’s id behaves as absent in every operation', async () => {
          const rec = await c.create();
          await c.create(undefined, {}, TENANT_B);
          const countB = await c.count({}, TENANT_B);

          expect(await c.getById(id(rec), TENANT_B)).toMatchObject({ status: 200, data: null });
          expect(await c.update({ [r.idField]: id(rec), [r.updateField]: v('hijacked') }, TENANT_B)).toMatchObject({
            status: 200,
            data: false,
          });
          expect(await c.update({ [r.idField]: id(rec), revision: 1, [r.updateField]: v('hijacked') }, TENANT_B)).toMatchObject({
            status: 200,
            data: false,
          });
          expect(await c.removeById(id(rec), TENANT_B)).toMatchObject({ status: 200, data: false });
          expect(await c.removeByIds([id(rec)], TENANT_B)).toMatchObject({ status: 200, data: false });

          const listed = await c.list({}, TENANT_B);
          expect((listed.data as Json[]).map(id)).not.toContain(id(rec));
          expect((listed.data as Json[]).every((x) => x.tenantId === 'tenant-b')).toBe(true);
          const paged = await c.page({ current: 1, pageSize: 1000 }, TENANT_B);
          expect((paged.data as Json[]).map(id)).not.toContain(id(rec));
          expect(paged.extraData.total).toBe(countB);
          expect(await c.count(pick(rec, r.filterFields), TENANT_B)).toBe(0);
          expect(await c.count({}, TENANT_B)).toBe(countB);

          expect(await c.stored(id(rec))).toEqual(rec);
        });

        it('another tenant’s identifier acts as absent: saving with it creates that tenant’s own record and never touches the first', async () => {
          const rec = await c.create();
          const res = await c.save({ ...r.sample(seed()), [r.idField]: id(rec), [r.updateField]: v('overwritten') }, TENANT_B);
          expect(res).toMatchObject({ status: 200, data: true }); // no 422: that would reveal the id exists elsewhere
          expect(await c.stored(id(rec))).toEqual(rec);
          expect((await c.getById(id(rec), TENANT_B)).data).toMatchObject({ tenantId: 'tenant-b', [r.updateField]: v('overwritten') });
        });

        it('the same key may be live in two tenants', async () => {
          const body = r.sample(seed());
          const a = await c.create(undefined, body);
          const b = await c.create(undefined, body, TENANT_B);
          expect(id(b)).not.toBe(id(a));
          expect(b).toMatchObject({ tenantId: 'tenant-b', createdUsername: 'bert' });
        });

        it('a tenantId in the body is ignored on save, updateById, page, list and count', async () => {
          const body = r.sample(seed());
          expect(await c.save({ ...body, tenantId: 'tenant-b' })).toMatchObject({ status: 200, data: true });
          const rec = await c.find(body);
          expect(rec).toMatchObject({ tenantId: 'tenant-a' });
          expect(await c.find(body, TENANT_B)).toBeUndefined();

          expect(await c.update({ [r.idField]: id(rec!), tenantId: 'tenant-b', [r.updateField]: v('moved?') })).toMatchObject({
            status: 200,
            data: true,
          });
          expect(await c.stored(id(rec!))).toMatchObject({ tenantId: 'tenant-a', [r.updateField]: v('moved?') });
          expect(await c.getById(id(rec!), TENANT_B)).toMatchObject({ data: null });

          const countB = await c.count({}, TENANT_B);
          const paged = await c.page({ tenantId: 'tenant-a', current: 1, pageSize: 1000 }, TENANT_B);
          expect(paged.status).toBe(200);
          expect((paged.data as Json[]).every((x) => x.tenantId === 'tenant-b')).toBe(true);
          expect(paged.extraData.total).toBe(countB);
          const listed = await c.list({ tenantId: 'tenant-a' }, TENANT_B);
          expect((listed.data as Json[]).every((x) => x.tenantId === 'tenant-b')).toBe(true);
          expect(await c.count({ tenantId: 'tenant-a' }, TENANT_B)).toBe(countB);
          expect(await c.update({ [r.idField]: id(rec!), tenantId: 'tenant-a', [r.updateField]: v('x') }, TENANT_B)).toMatchObject({
            data: false,
          });
        });
      });

      describe('mass assignment', () => {
        const forged = {
          createdTime: 5,
          createdUsername: 'mallory',
          lastModifiedTime: 6,
          lastModifiedUsername: 'mallory',
          deleteTime: 7,
          tenantId: 'tenant-b',
        };

        it('server-owned fields sent on save are ignored', async () => {
          const body = r.sample(seed());
          const before = Date.now();
          expect(await c.save({ ...body, ...forged, revision: 99 })).toMatchObject({ status: 200, data: true });
          const rec = await c.find(body);
          expect(rec).toMatchObject({
            tenantId: 'tenant-a',
            revision: 1,
            createdUsername: 'alice',
            lastModifiedUsername: 'alice',
            deleteTime: null,
          });
          expect(rec!.createdTime).toBeGreaterThanOrEqual(before);
          expect(rec!.lastModifiedTime).toBeGreaterThanOrEqual(before);
          expect(await c.stored(id(rec!))).toEqual(rec);
          expect(await c.find(body, TENANT_B)).toBeUndefined();
        });

        it('server-owned fields sent on updateById are ignored', async () => {
          const rec = await c.create();
          const before = Date.now();
          expect(await c.update({ [r.idField]: id(rec), ...forged, [r.updateField]: v('changed'), deleteTime: Date.now() })).toMatchObject({
            status: 200,
            data: true,
          });
          const after = await c.stored(id(rec));
          expect(after).toEqual({ ...rec, [r.updateField]: v('changed'), revision: 2, lastModifiedTime: expect.any(Number) });
          expect(after!.lastModifiedTime).toBeGreaterThanOrEqual(before);
        });
      });

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

      describe('required query parameters', () => {
        it('getById, removeById without id or with an empty id, and removeByIds without ids → 1002', async () => {
          const rec = await c.create();
          const countBefore = await c.count();
          expectFailure(await t.get(`${P}/getById`), 1002, `${P}/getById`, 'id');
          expectFailure(await t.get(`${P}/getById?id=`), 1002, `${P}/getById`, 'id');
          expectFailure(await t.del(`${P}/removeById`), 1002, `${P}/removeById`, 'id');
          expectFailure(await t.del(`${P}/removeById?id=`), 1002, `${P}/removeById`, 'id');
          expectFailure(await t.del(`${P}/removeByIds`), 1002, `${P}/removeByIds`, 'ids');
          expectFailure(await t.del(`${P}/removeByIds?ids=`), 1002, `${P}/removeByIds`, 'ids');
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
          for (const field of r.requiredFields)
            expectFailure(await c.save({ ...r.sample(seed()), [field]: null }), 400, `${P}/save`, field);
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
          const res = await t
            .http()
            .post(`${P}/save`)
            .set('Authorization', t.auth())
            .set('Content-Type', 'application/json')
            .send('{"broken": ');
          expect(res.status).toBe(200);
          expect(res.body).toMatchObject({ status: 1004, path: `${P}/save`, data: null });
          expect(await c.count()).toBe(countBefore);
        });
      });

      if (r.writeOnly?.length)
        describe(`write-only ${r.writeOnly.join(', ')}`, () => {
          const secrets = r.writeOnly ?? [];
          /** The stored column values, read beside the API (which never shows them). */
          async function storedSecrets(recId: string): Promise<Json> {
            const meta = t.dataSource.entityMetadatas.find((m) => m.primaryColumns.some((col) => col.propertyName === r.idField))!;
            const qb = t.dataSource
              .getRepository(meta.target)
              .createQueryBuilder('r')
              .where(`r.${r.idField} = :recId`, { recId })
              .andWhere('r.tenantId = :tenant', { tenant: 'tenant-a' });
            for (const secret of secrets) qb.addSelect(`r.${secret}`);
            return pick((await qb.getOne()) as Json, secrets);
          }
          /** No response body contains a secret's value, under any name. */
          const expectNoSecret = (res: unknown, body: Json) => {
            const text = JSON.stringify(res);
            for (const secret of secrets)
              expect({ secret, leaked: text.includes(String(body[secret])) }).toEqual({ secret, leaked: false });
          };

          it('save stores them; save, getById, list, page, count and listCache never return them', async () => {
            const body = r.sample(seed());
            for (const secret of secrets) expect(typeof body[secret]).toBe('string');
            const saved = await c.save(body);
            expect(saved).toMatchObject({ status: 200, data: true });
            expectNoSecret(saved, body);
            const rec = await c.find(body);
            expect(rec).toBeDefined();
            for (const secret of secrets) expect(rec).not.toHaveProperty(secret);
            const stored = await storedSecrets(id(rec!));
            for (const secret of secrets) expect(stored[secret]).toEqual(expect.any(String));

            const reads = [
              await c.getById(id(rec!)),
              await c.list({}),
              await c.page({ current: 1, pageSize: 1000 }),
              await c.list(pick(body, r.filterFields)),
            ];
            if (r.listCache) reads.push(await t.post(`${P}/listCache`, {}));
            for (const res of reads) {
              expect(res.status).toBe(200);
              expectNoSecret(res, body);
            }
            expect((reads[0].data as Json)[r.idField]).toBe(id(rec!));
          });

          it('updateById without them keeps them; with new values replaces them (still never returned)', async () => {
            const body = r.sample(seed());
            const rec = await c.create(undefined, body);
            const before = await storedSecrets(id(rec));
            const kept = await c.update({ [r.idField]: id(rec), [r.updateField]: v('no secret') });
            expect(kept).toMatchObject({ status: 200, data: true });
            expect(await storedSecrets(id(rec))).toEqual(before);

            const changed = Object.fromEntries(secrets.map((secret) => [secret, `${String(body[secret])}-rotated`]));
            const res = await c.update({ [r.idField]: id(rec), ...changed });
            expect(res).toMatchObject({ status: 200, data: true });
            expectNoSecret(res, changed);
            const after = await storedSecrets(id(rec));
            for (const secret of secrets) expect({ secret, same: after[secret] === before[secret] }).toEqual({ secret, same: false });
            expectNoSecret(await c.getById(id(rec)), changed);
            expect(await c.stored(id(rec))).not.toHaveProperty(secrets[0]);
          });

          it('a refused save or update does not echo them', async () => {
            const body = r.sample(seed());
            const rec = await c.create();
            for (const { patch } of invalidCases) {
              expectNoSecret(await c.save({ ...body, ...patch }), body);
              expectNoSecret(await c.update({ [r.idField]: id(rec), ...pick(body, secrets), ...patch }), body);
            }
            const tooLong = Object.fromEntries(secrets.map((secret) => [secret, `${String(body[secret])}${'x'.repeat(5000)}`]));
            const res = await c.save({ ...body, ...tooLong });
            expect(res.status).toBe(400);
            expectNoSecret(res, body);
          });
        });

      describe('OpenAPI', () => {
        const STANDARD: [string, string, string][] = [
          ['post', 'count', 'read'],
          ['get', 'getById', 'read'],
          ['post', 'list', 'read'],
          ['post', 'page', 'read'],
          ['delete', 'removeById', 'delete'],
          ['delete', 'removeByIds', 'delete'],
          ['post', 'save', 'create'],
          ['put', 'updateById', 'update'],
        ];
        let doc: Json;
        beforeAll(async () => {
          doc = (await t.http().get('/main-service/v3/api-docs')).body;
        });
        /** The properties of a schema, following $ref, allOf and anyOf (a record or null). */
        const properties = (schema: Json | undefined): Json => {
          if (!schema) return {};
          if (schema.$ref) return properties(doc.components.schemas[String(schema.$ref).split('/').pop()!]);
          return Object.assign({}, ...[...(schema.allOf ?? []), ...(schema.anyOf ?? [])].map(properties), schema.properties ?? {});
        };
        const operation = (method: string, op: string): Json => doc.paths?.[`${P}/${op}`]?.[method] ?? {};
        const bodyProperties = (method: string, op: string) =>
          properties(operation(method, op).requestBody?.content?.['application/json']?.schema);

        it(`documents the 8 standard operations, each with x-permission ${r.permission}:<action> (contract.md "Tenancy and access")`, () => {
          const actual = STANDARD.map(([m, op]) => [`${m.toUpperCase()} ${op}`, operation(m, op)['x-permission'] ?? null]);
          expect(actual).toEqual(STANDARD.map(([m, op, action]) => [`${m.toUpperCase()} ${op}`, `${r.permission}:${action}`]));
        });

        it('count, list and page document the exact filters (and the time range bounds)', () => {
          const range = r.timeRange ? [`${r.timeRange.field}Start`, `${r.timeRange.field}End`] : [];
          for (const op of ['count', 'list', 'page']) {
            const props = bodyProperties('post', op);
            expect({ op, missing: [...r.filterFields, ...range].filter((f) => !(f in props)) }).toEqual({ op, missing: [] });
            for (const bound of range) expect({ op, bound, type: props[bound].type }).toEqual({ op, bound, type: 'integer' });
          }
        });

        it('every 200 response is the envelope with typed data: the record for getById, arrays of it for list and page', () => {
          const data = (method: string, op: string): Json => answerSchema(doc, operation(method, op)).properties?.data ?? {};
          for (const [m, op] of STANDARD) {
            const d = data(m, op);
            expect({ op, typed: !!(d.type || d.$ref || d.allOf || d.oneOf || d.anyOf) }).toEqual({ op, typed: true });
          }
          const record = (d: Json) => Object.keys(properties(d));
          const readableRequired = r.requiredFields.filter((f) => !(r.writeOnly ?? []).includes(f));
          expect(record(data('get', 'getById'))).toEqual(
            expect.arrayContaining([r.idField, 'tenantId', 'revision', 'deleteTime', ...readableRequired]),
          );
          for (const op of ['list', 'page']) {
            expect({ op, type: data('post', op).type }).toEqual({ op, type: 'array' });
            expect(record(data('post', op).items)).toEqual(record(data('get', 'getById')));
          }
          const extra = answerSchema(doc, operation('post', 'page')).properties.extraData;
          expect(Object.keys(extra?.properties ?? {}).sort()).toEqual(['current', 'pages', 'size', 'total']);
        });

        it('the save body documents write-only fields as writeOnly; the record schema does not contain them', () => {
          const save = bodyProperties('post', 'save');
          const record = properties(answerSchema(doc, operation('get', 'getById')).properties?.data);
          expect(Object.keys(record)).toContain(r.idField);
          for (const secret of r.writeOnly ?? []) {
            expect({ secret, writeOnly: save[secret]?.writeOnly }).toEqual({ secret, writeOnly: true });
            expect(Object.keys(record)).not.toContain(secret);
          }
          for (const f of r.requiredFields) expect(Object.keys(save)).toContain(f);
        });
      });

      describe(`permissions (${r.permission}:<action>)`, () => {
        const as = (sub: string, ...actions: string[]): Claims => ({
          sub,
          roles: [],
          permissions: actions.map((a) => `${r.permission}:${a}`),
        });
        const reader = as('rita', 'read');

        it('read: count, getById, list and page work; save, updateById and remove are refused with 403', async () => {
          const rec = await c.create();
          const countBefore = await c.count();
          expect(await c.page({ current: 1, pageSize: 10 }, reader)).toMatchObject({ status: 200 });
          expect(await c.count({}, reader)).toBe(countBefore);
          expect(await c.list({}, reader)).toMatchObject({ status: 200 });
          expect(await c.getById(id(rec), reader)).toMatchObject({ status: 200, data: rec });

          const forbidden = { httpStatus: 403, status: 403, data: null };
          expect(await c.save(r.sample(seed()), reader)).toMatchObject({ ...forbidden, path: `${P}/save` });
          expect(await c.update({ [r.idField]: id(rec), [r.updateField]: v('x') }, reader)).toMatchObject({
            ...forbidden,
            path: `${P}/updateById`,
          });
          expect(await c.removeById(id(rec), reader)).toMatchObject({ ...forbidden, path: `${P}/removeById` });
          expect(await c.removeByIds([id(rec)], reader)).toMatchObject({ ...forbidden, path: `${P}/removeByIds` });
          expect(await c.count()).toBe(countBefore);
          expect(await c.stored(id(rec))).toEqual(rec);
        });

        it('create: save works (stamped with the caller) but reading is refused', async () => {
          const creator = as('cora', 'create');
          const body = r.sample(seed());
          expect(await c.save(body, creator)).toMatchObject({ status: 200, data: true });
          expect(await c.find(body)).toMatchObject({ createdUsername: 'cora', tenantId: 'tenant-a' });
          expect(await c.page({ current: 1, pageSize: 10 }, creator)).toMatchObject({ httpStatus: 403, status: 403 });
          expect(await c.countRaw({}, creator)).toMatchObject({ httpStatus: 403, status: 403 });
        });

        it('update: updateById works; save and remove are refused', async () => {
          const updater = as('ursula', 'update');
          const rec = await c.create();
          expect(await c.update({ [r.idField]: id(rec), [r.updateField]: v('by updater') }, updater)).toMatchObject({
            status: 200,
            data: true,
          });
          expect(await c.stored(id(rec))).toMatchObject({ [r.updateField]: v('by updater'), lastModifiedUsername: 'ursula', revision: 2 });
          expect(await c.save(r.sample(seed()), updater)).toMatchObject({ httpStatus: 403, status: 403 });
          expect(await c.removeById(id(rec), updater)).toMatchObject({ httpStatus: 403, status: 403 });
        });

        it('delete: removeById and removeByIds work; updateById is refused', async () => {
          const deleter = as('dora', 'delete');
          const [a, b] = [await c.create(), await c.create()];
          expect(await c.update({ [r.idField]: id(a), [r.updateField]: v('x') }, deleter)).toMatchObject({ httpStatus: 403, status: 403 });
          expect(await c.removeById(id(a), deleter)).toMatchObject({ status: 200, data: true });
          expect(await c.removeByIds([id(b), 'NoSuchRecord1'], deleter)).toMatchObject({ status: 200, data: true });
          expect(await c.getById(id(a))).toMatchObject({ data: null });
          expect(await c.getById(id(b))).toMatchObject({ data: null });
        });

        it('a permission of another resource or of a bare action grants nothing; no token gives 401', async () => {
          const other = ALL_RESOURCES.find((x) => x.permission !== r.permission)!;
          const stranger: Claims = {
            sub: 'sam',
            roles: ['user'],
            permissions: [`${other.permission}:read`, `${other.permission}:create`, 'read', 'create', r.permission],
          };
          expect(await c.page({ current: 1, pageSize: 10 }, stranger)).toMatchObject({ httpStatus: 403, status: 403 });
          expect(await c.save(r.sample(seed()), stranger)).toMatchObject({ httpStatus: 403, status: 403 });
          const anonymous = await t.http().post(`${P}/page`).send({});
          expect(anonymous.status).toBe(401);
          expect(anonymous.body).toMatchObject({ status: 401, path: `${P}/page`, data: null });
        });
      });
    });
  });

  return { limitedClient: (r) => client(() => limited, r) };
}
