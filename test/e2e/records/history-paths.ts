/**
 * History beyond the standard operations (docs/contract.md "History"): every other write path leaves its entries
 * in its own transaction (saveOrUpdate, saveBatch, the synchronous and the asynchronous importList, retention's
 * purge), background work is `system` and the asynchronous import `import`; HISTORY_RETENTION_DAYS removes old
 * entries; the tenant-wide view (role administrator) shows every resource's entries of the caller's tenant only.
 * SQLite, or MySQL/MariaDB with DB_URL.
 */
import { RetentionJob } from '@app/common';
import { resourceSpec } from '../../support/tables';
import { CONFIG, Envelope, startApp, TestApp } from '../../support/test-app';
import { Claims } from '../../support/tokens';
import type { Json } from '../../support/json';

const DAY = 86_400_000;
const TENANT_HISTORY = '/main-service/system-api/history/page';

let counter = 0;
const seed = () => `hp${++counter}x${Date.now().toString(36)}`;
const tenant = (): Claims => ({ tenantId: `hist-${seed()}`, sub: 'alice' });

function ok(res: Envelope): Envelope {
  expect(res).toMatchObject({ httpStatus: 200, status: 200, error: null });
  return res;
}

type Entry = {
  recordId: string;
  action: string;
  username: string;
  requestId: string | null;
  changes: { field: string }[];
  resource?: string;
};

describe('history of every write path', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startApp({
      PURGE_DELETED_AFTER_DAYS: '30',
      HISTORY_RETENTION_DAYS: '90',
      RETENTION_BATCH_ROWS: '2',
      RETENTION_BATCH_PAUSE_MS: '0',
    });
  });
  afterAll(() => t?.close());

  /** A resource's entries of the tenant, newest first. */
  const historyOf = async (segment: string, claims: Claims, body: Json = {}): Promise<Entry[]> =>
    ok(await t.post(`${CONFIG}/${segment}/historyPage`, { current: 1, pageSize: 1000, ...body }, claims)).data as Entry[];
  const idsOf = async (segment: string, claims: Claims, filter: Json): Promise<string[]> => {
    const r = resourceSpec(segment);
    return (ok(await t.post(`${CONFIG}/${segment}/list`, filter, claims)).data as Json[]).map((rec) => rec[r.idField] as string);
  };

  it('saveOrUpdate: CREATE, then UPDATE of the changed fields by id and by key', async () => {
    const claims = tenant();
    const body = { dataDictionaryTypeCode: seed(), dataDictionaryCode: 'cn', row: '1', key: 'k', value: 'v1', name: 'n', sort: 1 };
    const P = `${CONFIG}/data-dictionary-table/saveOrUpdate`;
    ok(await t.post(P, body, claims));
    ok(await t.post(P, { ...body, value: 'v2' }, claims));
    const [id] = await idsOf('data-dictionary-table', claims, { dataDictionaryTypeCode: body.dataDictionaryTypeCode });
    ok(await t.post(P, { ...body, value: 'v2', dataDictionaryTableId: id, name: 'n2' }, claims));
    const entries = await historyOf('data-dictionary-table', claims, { recordId: id });
    expect(entries.map((e) => [e.action, e.changes.map((c) => c.field)])).toEqual([
      ['UPDATE', ['name']],
      ['UPDATE', ['value']],
      ['CREATE', expect.arrayContaining(['dataDictionaryTypeCode', 'key', 'value', 'name', 'sort'])],
    ]);
    for (const entry of entries) expect(entry).toMatchObject({ username: 'alice', requestId: expect.any(String) });
  });

  it('saveBatch and the synchronous importList: one entry per row, the batch’s request id on each', async () => {
    const claims = tenant();
    const r = resourceSpec('value-set-table');
    ok(await t.post(`${CONFIG}/value-set-table/saveBatch`, [r.sample(seed()), r.sample(seed())], claims));
    const batch = await historyOf('value-set-table', claims);
    expect(batch.map((e) => e.action)).toEqual(['CREATE', 'CREATE']);
    expect(batch[0].requestId).toEqual(batch[1].requestId);

    const types = resourceSpec('data-dictionary-type');
    const [a, b] = [types.sample(seed()), types.sample(seed())];
    ok(await t.post(`${CONFIG}/data-dictionary-type/importList`, [a, b], claims));
    ok(await t.post(`${CONFIG}/data-dictionary-type/importList`, [{ ...a, [types.updateField]: 'imported again' }, b], claims));
    const imported = await historyOf('data-dictionary-type', claims);
    // the second import changed one row: b's upsert left it as it was, so no entry
    expect(imported.map((e) => e.action)).toEqual(['UPDATE', 'CREATE', 'CREATE']);
    expect(imported[0].changes.map((c) => c.field)).toEqual([types.updateField]);
  });

  it('the asynchronous importList is written as `import`, in the consumer’s transaction', async () => {
    const claims = tenant();
    const type = seed();
    const rows = ['a', 'b'].map((code) => ({ dataDictionaryTypeCode: type, dataDictionaryCode: code, name: code, sort: 1 }));
    ok(await t.post(`${CONFIG}/data-dictionary/importList`, rows, claims));
    await t.drainOutbox();
    const entries = await historyOf('data-dictionary', claims);
    expect(entries.map((e) => [e.action, e.username])).toEqual([
      ['CREATE', 'import'],
      ['CREATE', 'import'],
    ]);
  });

  it('retention’s purge is a PURGE by `system` that blanks the record’s values; HISTORY_RETENTION_DAYS removes old entries', async () => {
    const claims = tenant();
    const r = resourceSpec('data-dictionary-type');
    ok(await t.post(`${CONFIG}/data-dictionary-type/save`, r.sample(seed()), claims));
    const [id] = (await historyOf('data-dictionary-type', claims)).map((e) => e.recordId);
    ok(await t.del(`${CONFIG}/data-dictionary-type/removeById?id=${id}`, claims));
    await t.dataSource.query(
      'UPDATE configuration_data_dictionary_type SET delete_time = ? WHERE tenant_id = ? AND data_dictionary_type_id = ?',
      [Date.now() - 31 * DAY, claims.tenantId, id],
    );
    // an old entry of another record, and the time of that record's creation moved back past the period
    const other = await t.post(`${CONFIG}/data-dictionary-type/save`, r.sample(seed()), claims);
    ok(other);
    const otherId = (await historyOf('data-dictionary-type', claims)).find((e) => e.recordId !== id)!.recordId;
    await t.dataSource.query('UPDATE record_history SET time = ? WHERE tenant_id = ? AND record_id = ?', [
      Date.now() - 91 * DAY,
      claims.tenantId,
      otherId,
    ]);

    const report = await t.app.get(RetentionJob).run();
    expect(report).toMatchObject({ ran: true, complete: true });
    const entries = (await t.post(`${CONFIG}/data-dictionary-type/historyPage`, { recordId: id, current: 1, pageSize: 10 }, claims))
      .data as (Entry & { purged: boolean })[];
    expect(entries.map((e) => [e.action, e.username, e.purged])).toEqual([
      ['PURGE', 'system', true],
      ['DELETE', 'alice', true],
      ['CREATE', 'alice', true],
    ]);
    expect(await historyOf('data-dictionary-type', claims, { recordId: otherId })).toEqual([]);
    await expectKeptTotals(claims, { resource: r.permission, username: 'alice', action: 'CREATE' }, 3);
  });

  /**
   * Each total the kept counts give (none, one of the filters, resource with action) is the number of entries the
   * page lists; `entries` is the unfiltered one.
   */
  async function expectKeptTotals(claims: Claims, filters: { resource: string; username: string; action: string }, entries: number) {
    const bodies = [
      {},
      ...Object.entries(filters).map(([name, value]) => ({ [name]: value })),
      { resource: filters.resource, action: filters.action },
    ];
    for (const body of bodies) {
      const page = ok(await t.post(TENANT_HISTORY, { ...body, current: 1, pageSize: 1000 }, claims));
      expect([body, page.extraData]).toEqual([body, expect.objectContaining({ total: (page.data as Entry[]).length })]);
    }
    expect((ok(await t.post(TENANT_HISTORY, { current: 1, pageSize: 1000 }, claims)).data as Entry[]).length).toBe(entries);
  }

  it('a counted total (a time range) is reused only while the tenant’s history is unchanged', async () => {
    const claims = tenant();
    const r = resourceSpec('data-dictionary-type');
    const since = { timeStart: 0, current: 1, pageSize: 1 };
    const totalSince = async () => ok(await t.post(TENANT_HISTORY, since, claims)).extraData.total;
    ok(await t.post(`${CONFIG}/data-dictionary-type/save`, r.sample(seed()), claims));
    expect(await totalSince()).toBe(1);
    ok(await t.post(`${CONFIG}/data-dictionary-type/save`, r.sample(seed()), claims));
    expect(await totalSince()).toBe(2);
  });

  describe('the tenant-wide view', () => {
    it('shows every resource’s entries of the caller’s tenant, named, and filters by resource, username and action', async () => {
      const [claims, other] = [tenant(), tenant()];
      ok(await t.post(`${CONFIG}/data-dictionary-type/save`, resourceSpec('data-dictionary-type').sample(seed()), claims));
      ok(await t.post(`${CONFIG}/value-set-type/save`, resourceSpec('value-set-type').sample(seed()), claims));
      ok(await t.post(`${CONFIG}/value-set-type/save`, resourceSpec('value-set-type').sample(seed()), other));
      const [types, sets] = [resourceSpec('data-dictionary-type').permission, resourceSpec('value-set-type').permission];
      const all = ok(await t.post(TENANT_HISTORY, { current: 1, pageSize: 10 }, claims));
      expect(all.extraData).toMatchObject({ current: 1, size: 10, total: 2, pages: 1 });
      expect((all.data as Entry[]).map((e) => e.resource)).toEqual([sets, types]);
      const one = ok(await t.post(TENANT_HISTORY, { resource: sets, current: 1, pageSize: 10 }, claims));
      expect((one.data as Entry[]).map((e) => e.resource)).toEqual([sets]);
      expect(ok(await t.post(TENANT_HISTORY, { username: 'bert', current: 1, pageSize: 10 }, claims)).data).toEqual([]);
      expect(ok(await t.post(TENANT_HISTORY, { action: 'UPDATE', current: 1, pageSize: 10 }, claims)).data).toEqual([]);
    });

    it('needs role administrator; refuses an unknown resource and a bad body with a 400', async () => {
      const claims = tenant();
      const user = { ...claims, roles: [], permissions: ['configuration-data-dictionary-type:read'] };
      expect(await t.post(TENANT_HISTORY, { current: 1, pageSize: 10 }, user)).toMatchObject({ status: 403, data: null });
      const unknown = await t.post(TENANT_HISTORY, { resource: 'no-such-resource', current: 1, pageSize: 10 }, claims);
      expect(unknown).toMatchObject({ status: 400, error: 'resource no-such-resource has no history', path: TENANT_HISTORY });
      expect(await t.post(TENANT_HISTORY, { action: 'DROP', current: 1, pageSize: 10 }, claims)).toMatchObject({ status: 400, data: null });
      // a resource's own historyPage needs only its read permission
      expect(await t.post(`${CONFIG}/data-dictionary-type/historyPage`, { current: 1, pageSize: 10 }, user)).toMatchObject({ status: 200 });
    });
  });
});
