/**
 * data-dictionary-table/saveOrUpdate: with the identifier of a live record of the caller's tenant it
 * updates that record (key fields too, `revision` checked when given); otherwise it upserts by the
 * uniqueness key (dataDictionaryTypeCode + dataDictionaryCode + row + key). An identifier of another
 * tenant, or of a deleted record, is absent. SQLite and MariaDB.
 */
import { CONFIG, Envelope, startApp, TestApp } from '../../support/test-app';
import { Claims } from '../../support/tokens';
import type { Json } from '../../support/json';

const P = `${CONFIG}/data-dictionary-table`;
const TENANT_B: Claims = { tenantId: 'tenant-b', sub: 'bert' };
const ID = 'dataDictionaryTableId';

describe('data-dictionary-table/saveOrUpdate', () => {
  let t: TestApp;
  let n = 0;
  const seed = () => `so${++n}x${Date.now().toString(36)}`;

  beforeAll(async () => {
    t = await startApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  const body = (type: string, key: string, extra: Json = {}): Json => ({
    dataDictionaryTypeCode: type,
    dataDictionaryCode: 'cn',
    row: '1',
    key,
    value: `v-${key}`,
    name: 'n',
    sort: 1,
    ...extra,
  });
  const saveOrUpdate = (b: Json, claims?: Claims) => t.post(`${P}/saveOrUpdate`, b, claims);
  const rowsOf = async (type: string, claims?: Claims): Promise<Json[]> =>
    ((await t.post(`${P}/list`, { dataDictionaryTypeCode: type }, claims)).data as Json[]).sort((a, b) => a.key.localeCompare(b.key));
  const getById = async (id: string, claims?: Claims): Promise<Json | null> => (await t.get(`${P}/getById?id=${id}`, claims)).data;
  /** Creates a record through save with a known identifier. */
  const create = async (type: string, key: string, claims?: Claims): Promise<Json> => {
    const id = `${type}${key}`.replace(/[^0-9A-Za-z]/g, '').slice(-32);
    expect(await t.post(`${P}/save`, { ...body(type, key), [ID]: id }, claims)).toMatchObject({ status: 200, data: true });
    return (await getById(id, claims))!;
  };
  const expectRefused = (res: Envelope, status: number, error: string | RegExp) => {
    expect(res).toMatchObject({ httpStatus: 200, status, data: null, path: `${P}/saveOrUpdate` });
    expect(res.error).toMatch(error);
  };
  const unchanged = (record: Json) => ({ [ID]: record[ID], key: record.key, value: record.value, revision: record.revision });

  describe('saveOrUpdate with the identifier of a live record of the tenant', () => {
    it('updates that record even when the key fields changed: no new record, the old key is free again', async () => {
      const s = seed();
      const record = await create(s, 'capital');
      const res = await saveOrUpdate(body(s, 'largest-city', { [ID]: record[ID], value: 'Shanghai' }));
      expect(res).toMatchObject({ httpStatus: 200, status: 200, data: true });
      expect(await rowsOf(s)).toEqual([
        expect.objectContaining({
          [ID]: record[ID],
          key: 'largest-city',
          value: 'Shanghai',
          revision: 2,
          createdTime: record.createdTime,
          tenantId: 'tenant-a',
        }),
      ]);
      // the old key is free: saving it by key creates a new record
      expect(await saveOrUpdate(body(s, 'capital'))).toMatchObject({ status: 200, data: true });
      expect((await rowsOf(s)).map((r) => [r.key, r.revision])).toEqual([
        ['capital', 1],
        ['largest-city', 2],
      ]);
    });

    it('checks revision when given: stale gives 409 and changes nothing; the current one updates', async () => {
      const s = seed();
      const record = await create(s, 'k');
      const stale = await saveOrUpdate(body(s, 'k2', { [ID]: record[ID], revision: 2, value: 'no' }));
      expectRefused(stale, 409, /revision 2 is stale/);
      expect(await rowsOf(s)).toEqual([expect.objectContaining(unchanged(record))]);

      expect(await saveOrUpdate(body(s, 'k2', { [ID]: record[ID], revision: 1, value: 'yes' }))).toMatchObject({ status: 200, data: true });
      expect(await rowsOf(s)).toEqual([expect.objectContaining({ [ID]: record[ID], key: 'k2', value: 'yes', revision: 2 })]);
      // the revision just read is current again; the one before is stale now
      expectRefused(await saveOrUpdate(body(s, 'k2', { [ID]: record[ID], revision: 1 })), 409, /revision 1 is stale/);
      expect(await saveOrUpdate(body(s, 'k2', { [ID]: record[ID], revision: 2, value: 'again' }))).toMatchObject({ status: 200 });
      expect(await getById(record[ID])).toMatchObject({ value: 'again', revision: 3 });
    });

    it('a changed key that another live record holds gives 422 "Data dictionary table exists" and changes nothing', async () => {
      const s = seed();
      const first = await create(s, 'a');
      const second = await create(s, 'b');
      const res = await saveOrUpdate(body(s, 'b', { [ID]: first[ID], value: 'clash' }));
      expectRefused(res, 422, /^Data dictionary table exists$/);
      expect(await rowsOf(s)).toEqual([expect.objectContaining(unchanged(first)), expect.objectContaining(unchanged(second))]);
    });
  });

  describe('saveOrUpdate without a usable identifier upserts by key', () => {
    it('checks revision against the record the key finds (ignored when a record is created)', async () => {
      const s = seed();
      expect(await saveOrUpdate(body(s, 'k', { revision: 5 }))).toMatchObject({ status: 200, data: true });
      const [created] = await rowsOf(s);
      expect(created).toMatchObject({ revision: 1 });
      expectRefused(await saveOrUpdate(body(s, 'k', { revision: 2, value: 'no' })), 409, /revision 2 is stale/);
      expect(await saveOrUpdate(body(s, 'k', { revision: 1, value: 'yes' }))).toMatchObject({ status: 200 });
      expect(await rowsOf(s)).toEqual([expect.objectContaining({ [ID]: created[ID], value: 'yes', revision: 2 })]);
    });

    it("another tenant's identifier is absent: the caller's own record is created or updated, the other tenant's never", async () => {
      const s = seed();
      const theirs = await create(s, 'k', TENANT_B);
      // same identifier and key in tenant-a: a record of tenant-a is created (ids are per tenant, so the
      // client's identifier is kept as save keeps it) and tenant-b's record is untouched
      expect(await saveOrUpdate(body(s, 'k', { [ID]: theirs[ID], value: 'mine' }))).toMatchObject({ status: 200, data: true });
      const [mine] = await rowsOf(s);
      expect(mine).toMatchObject({ [ID]: theirs[ID], tenantId: 'tenant-a', value: 'mine', revision: 1 });
      expect(await rowsOf(s, TENANT_B)).toEqual([expect.objectContaining({ ...unchanged(theirs), tenantId: 'tenant-b' })]);

      // their identifier with a key the caller already has updates the caller's record with that key
      const other = await create(s, 'other');
      const foreign = await create(s, 'foreign', TENANT_B);
      expect(await saveOrUpdate(body(s, 'other', { [ID]: foreign[ID], value: 'updated' }))).toMatchObject({ status: 200 });
      expect(await getById(other[ID])).toMatchObject({ value: 'updated', revision: 2 });
      expect(await getById(foreign[ID])).toBeNull();
      expect(await getById(foreign[ID], TENANT_B)).toMatchObject(unchanged(foreign));

      // a stale revision with their identifier is checked against nothing of theirs: the key decides
      expect(await saveOrUpdate(body(s, 'new', { [ID]: foreign[ID], revision: 9 }))).toMatchObject({ status: 200 });
      expect(await getById(foreign[ID])).toMatchObject({ key: 'new', tenantId: 'tenant-a', revision: 1 });
      expect(await getById(foreign[ID], TENANT_B)).toMatchObject(unchanged(foreign));
    });

    it("a deleted record's identifier is absent: the live record with the key is updated, the deleted one never", async () => {
      const s = seed();
      const deleted = await create(s, 'gone');
      expect(await t.del(`${P}/removeById?id=${deleted[ID]}`)).toMatchObject({ data: true });
      const live = await create(s, 'live');
      expect(await saveOrUpdate(body(s, 'live', { [ID]: deleted[ID], value: 'updated' }))).toMatchObject({ status: 200 });
      expect(await rowsOf(s)).toEqual([expect.objectContaining({ [ID]: live[ID], value: 'updated', revision: 2 })]);
      // a new key with that identifier: the identifier is still taken by the deleted record, as on save
      expectRefused(await saveOrUpdate(body(s, 'fresh', { [ID]: deleted[ID] })), 422, /^Data dictionary table exists$/);
      expect((await rowsOf(s)).map((r) => r.key)).toEqual(['live']);
    });
  });
});
