/**
 * Imports and batch writes of the configuration group:
 * - the 7 synchronous importList operations (one table, describe.each);
 * - data-dictionary/importList, asynchronous through the transactional outbox and the in-process bus,
 *   including redelivery and poison messages handled by the AsyncImporter consumer;
 * - data-dictionary-table/saveOrUpdate and value-set-table/saveBatch.
 * Expected behaviour: docs/contract.md and docs/decisions.md ("Imports").
 */
import { AsyncImporter, importerToken, ImportBatch, OutboxMessage } from '@app/common';
import { importDigest } from '@app/common/messaging/import-digest';
import { ImportRejection } from '@app/common/messaging/import-rejection.entity';
import { dataDictionaryResource } from '../../../apps/main-service/src/configuration/data-dictionary/data-dictionary.resource';
import { CONFIG, Envelope, startApp, TestApp } from '../../support/test-app';
import { Claims } from '../../support/tokens';
import type { Json } from '../../support/json';

const TENANT_B: Claims = { tenantId: 'tenant-b', sub: 'bert' };
const ID_PATTERN = /^[0-9A-Za-z]{21}$/;

let counter = 0;
/** A fresh seed per test: every key field embeds it, so tests never collide. */
const seed = (): string => `s${++counter}x${Date.now().toString(36)}`;

describe('configuration imports and batch writes', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  async function listAll(segment: string, claims?: Claims): Promise<Json[]> {
    const res = await t.post(`${CONFIG}/${segment}/list`, {}, claims);
    expect(res).toMatchObject({ status: 200 });
    expect(Array.isArray(res.data)).toBe(true);
    return res.data as Json[];
  }

  function expectFailure(res: Envelope, status: number, path: string): void {
    expect(res).toMatchObject({ httpStatus: 200, status, path, data: null });
    expect(typeof res.error).toBe('string');
  }

  // ---------------------------------------------------------------------------------------------
  // The 7 synchronous importList operations
  // ---------------------------------------------------------------------------------------------

  interface SyncResource {
    segment: string;
    idField: string;
    /** The type-code field: every row of one test carries the test's seed in it. */
    typeField: string;
    keyFields: string[];
    duplicateText: string;
    /** Permission name without the action (contract.md "Tenancy and access"). */
    permission: string;
    /** Row i of the batch of test seed s (distinct uniqueness key per i). */
    row: (s: string, i: number) => Json;
  }

  const SYNC_IMPORTS: SyncResource[] = [
    {
      segment: 'data-dictionary-map',
      permission: 'configuration-data-dictionary-map',
      idField: 'dataDictionaryMapId',
      typeField: 'dataDictionaryTypeCode',
      keyFields: ['dataDictionaryTypeCode', 'dataDictionaryCode', 'key'],
      duplicateText: 'Data dictionary map exists',
      row: (s, i) => ({
        dataDictionaryTypeCode: s,
        dataDictionaryCode: 'gender',
        key: `icon${i}`,
        value: `mdi-${i}`,
        name: `Name ${i}`,
        sort: i,
      }),
    },
    {
      segment: 'data-dictionary-table',
      permission: 'configuration-data-dictionary-table',
      idField: 'dataDictionaryTableId',
      typeField: 'dataDictionaryTypeCode',
      keyFields: ['dataDictionaryTypeCode', 'dataDictionaryCode', 'row', 'key'],
      duplicateText: 'Data dictionary table exists',
      row: (s, i) => ({
        dataDictionaryTypeCode: s,
        dataDictionaryCode: 'cn',
        row: '1',
        key: `col${i}`,
        value: `v${i}`,
        name: `Name ${i}`,
        sort: i,
      }),
    },
    {
      segment: 'data-dictionary-type',
      permission: 'configuration-data-dictionary-type',
      idField: 'dataDictionaryTypeId',
      typeField: 'dataDictionaryTypeCode',
      keyFields: ['dataDictionaryTypeCode'],
      duplicateText: 'Data dictionary type exists',
      row: (s, i) => ({ dataDictionaryTypeCode: `${s}-${i}`, name: `Name ${i}`, sort: i, remark: `remark ${i}` }),
    },
    {
      segment: 'value-set',
      permission: 'value-set',
      idField: 'valueSetId',
      typeField: 'valueSetTypeCode',
      keyFields: ['valueSetTypeCode', 'value'],
      duplicateText: 'Value set exists',
      row: (s, i) => ({ valueSetTypeCode: s, value: `high${i}`, name: `Name ${i}`, sort: i, remark: `remark ${i}` }),
    },
    {
      segment: 'value-set-map',
      permission: 'value-set-map',
      idField: 'valueSetMapId',
      typeField: 'valueSetTypeCode',
      keyFields: ['valueSetTypeCode', 'key'],
      duplicateText: 'Value set map exists',
      row: (s, i) => ({ valueSetTypeCode: s, key: `k${i}`, value: `#f0${i}`, name: `Name ${i}`, sort: i }),
    },
    {
      segment: 'value-set-table',
      permission: 'value-set-table',
      idField: 'valueSetTableId',
      typeField: 'valueSetTypeCode',
      keyFields: ['valueSetTypeCode', 'row', 'key'],
      duplicateText: 'Value set table exists',
      row: (s, i) => ({ valueSetTypeCode: s, row: '1', key: `start${i}`, value: `0${i}:00`, name: `Name ${i}`, sort: i }),
    },
    {
      segment: 'value-set-type',
      permission: 'value-set-type',
      idField: 'valueSetTypeId',
      typeField: 'valueSetTypeCode',
      keyFields: ['valueSetTypeCode'],
      duplicateText: 'Value set type exists',
      row: (s, i) => ({ valueSetTypeCode: `${s}-${i}`, name: `Name ${i}`, sort: i, remark: `remark ${i}` }),
    },
  ];

  describe.each(SYNC_IMPORTS)('$segment/importList (synchronous)', (r) => {
    const P = `${CONFIG}/${r.segment}`;
    const importList = (body: unknown, claims?: Claims) => t.post(`${P}/importList`, body, claims);
    /** Live rows of the tenant that belong to seed s, keyed by their uniqueness key. */
    const rowsOf = async (s: string, claims?: Claims): Promise<Json[]> =>
      (await listAll(r.segment, claims)).filter((x) => String(x[r.typeField]).startsWith(s));
    const keyOf = (x: Json): string => r.keyFields.map((k) => x[k]).join('|');
    const byKey = (rows: Json[]): Map<string, Json> => new Map(rows.map((x) => [keyOf(x), x]));

    it('imports new rows: data true, extraData {count, inserted, updated}', async () => {
      const s = seed();
      const batch = [r.row(s, 1), { ...r.row(s, 2), tenantId: 'evil', revision: 7, createdUsername: 'mallory' }];
      const res = await importList(batch);
      expect(res).toMatchObject({ httpStatus: 200, status: 200, error: null, data: true });
      expect(res.extraData).toEqual({ count: 2, inserted: 2, updated: 0 });

      const stored = byKey(await rowsOf(s));
      expect(stored.size).toBe(2);
      for (const row of batch) {
        const x = stored.get(keyOf(row));
        expect(x).toBeDefined();
        expect(x).toMatchObject({
          name: row.name,
          sort: row.sort,
          tenantId: 'tenant-a',
          revision: 1,
          createdUsername: 'alice',
          deleteTime: null,
        });
        expect(x![r.idField]).toMatch(ID_PATTERN);
      }
      // another tenant sees none of them
      expect(await rowsOf(s, TENANT_B)).toEqual([]);
    });

    it('re-importing the same keys updates them (no duplicates); a mixed batch reports inserted and updated', async () => {
      const s = seed();
      const first = [r.row(s, 1), r.row(s, 2)];
      expect((await importList(first)).extraData).toEqual({ count: 2, inserted: 2, updated: 0 });
      const before = byKey(await rowsOf(s));

      const changed = first.map((row) => ({ ...row, name: `${row.name} changed` }));
      const again = await importList(changed);
      expect(again).toMatchObject({ status: 200, data: true });
      expect(again.extraData).toEqual({ count: 2, inserted: 0, updated: 2 });

      const after = byKey(await rowsOf(s));
      expect(after.size).toBe(2);
      for (const row of changed) {
        const x = after.get(keyOf(row))!;
        expect(x).toMatchObject({ name: row.name, revision: 2, tenantId: 'tenant-a' });
        expect(x[r.idField]).toBe(before.get(keyOf(row))![r.idField]); // the same record, updated in place
      }

      const mixed = await importList([{ ...r.row(s, 1), name: 'third' }, r.row(s, 3)]);
      expect(mixed.extraData).toEqual({ count: 2, inserted: 1, updated: 1 });
      const last = byKey(await rowsOf(s));
      expect(last.size).toBe(3);
      expect(last.get(keyOf(r.row(s, 1)))).toMatchObject({ name: 'third', revision: 3 });
      expect(last.get(keyOf(r.row(s, 3)))).toMatchObject({ revision: 1 });
    });

    it('the same keys in another tenant are inserted there, never updating the first tenant', async () => {
      const s = seed();
      await importList([r.row(s, 1), r.row(s, 2)]);
      const res = await importList(
        [
          { ...r.row(s, 1), name: 'B' },
          { ...r.row(s, 2), name: 'B' },
        ],
        TENANT_B,
      );
      expect(res.extraData).toEqual({ count: 2, inserted: 2, updated: 0 });
      expect((await rowsOf(s)).map((x) => x.name).sort()).toEqual(['Name 1', 'Name 2']);
      expect((await rowsOf(s, TENANT_B)).map((x) => [x.name, x.tenantId])).toEqual([
        ['B', 'tenant-b'],
        ['B', 'tenant-b'],
      ]);
    });

    it('a batch with an invalid row is refused with status 400 naming the row, and nothing of it is written', async () => {
      const s = seed();
      await importList([r.row(s, 1)]);
      const res = await importList([{ ...r.row(s, 1), name: 'must not be written' }, { ...r.row(s, 2), [r.typeField]: '' }, r.row(s, 3)]);
      expectFailure(res, 400, `${P}/importList`);
      expect(res.error).toContain('[1]');
      expect(res.error).toContain(r.typeField);
      expect(res.error).not.toContain('[0]');
      expect(res.error).not.toContain('[2]');
      const rows = await rowsOf(s);
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ name: 'Name 1', revision: 1 });
    });

    it('a storage failure in the middle of the batch rolls the whole batch back (422 for an identifier in use)', async () => {
      const s = seed();
      await importList([r.row(s, 1)]);
      const [existing] = await rowsOf(s);
      // row 0 updates, row 1 inserts, row 2 is a new key whose client identifier is already taken
      const res = await importList([
        { ...r.row(s, 1), name: 'rolled back' },
        r.row(s, 2),
        { ...r.row(s, 3), [r.idField]: existing[r.idField] },
      ]);
      expectFailure(res, 422, `${P}/importList`);
      expect(res.error).toBe(r.duplicateText);
      const rows = await rowsOf(s);
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ name: 'Name 1', revision: 1 });
    });

    it(`needs the permission ${r.permission}:create (403 with only :read)`, async () => {
      const s = seed();
      const readOnly = await importList([r.row(s, 1)], { roles: [], permissions: [`${r.permission}:read`] });
      expect(readOnly).toMatchObject({ httpStatus: 403, status: 403, path: `${P}/importList`, data: null });
      // the create permission passes the guard (the body is then checked: 1003 for a non-array)
      expect(await importList({}, { roles: [], permissions: [`${r.permission}:create`] })).toMatchObject({ httpStatus: 200, status: 1003 });
      expect(await rowsOf(s)).toEqual([]);
    });

    it('a body that is not an array of objects gives status 1003; an empty array 400', async () => {
      const s = seed();
      expectFailure(await importList(r.row(s, 1)), 1003, `${P}/importList`);
      expectFailure(await importList([r.row(s, 1), 'x']), 1003, `${P}/importList`);
      expectFailure(await importList([]), 400, `${P}/importList`);
      expect(await rowsOf(s)).toEqual([]);
    });
  });

  // ---------------------------------------------------------------------------------------------
  // data-dictionary/importList: asynchronous through the outbox
  // ---------------------------------------------------------------------------------------------

  describe('data-dictionary/importList (asynchronous)', () => {
    const P = `${CONFIG}/data-dictionary`;
    const TOPIC = 'configuration.data-dictionary.import';
    const dd = (s: string, i: number, extra: Json = {}): Json => ({
      dataDictionaryTypeCode: s,
      dataDictionaryCode: `c${i}`,
      value: `v${i}`,
      name: `Name ${i}`,
      sort: i,
      ...extra,
    });
    const rowsOf = async (s: string, claims?: Claims): Promise<Json[]> =>
      (await listAll('data-dictionary', claims)).filter((x) => x.dataDictionaryTypeCode === s).sort((a, b) => a.sort - b.sort);
    const batches = () => t.dataSource.getRepository(ImportBatch);
    const importer = (): AsyncImporter<never> => t.app.get(importerToken(dataDictionaryResource), { strict: false });
    const message = (payload: unknown, key = 'tenant-a') => ({
      key,
      value: typeof payload === 'string' ? payload : JSON.stringify(payload),
    });
    const rejections = (claimedBatchId: string) => t.dataSource.getRepository(ImportRejection).findBy({ claimedBatchId });
    /** A batch as the request stores it (the consumer applies only those), for messages crafted here. */
    const registered = async (batchId: string, items: Json[], username = 'carol') => {
      await batches().insert({
        batchId,
        tenantId: 'tenant-a',
        topic: TOPIC,
        createdUsername: username,
        status: 'PENDING',
        itemCount: items.length,
        appliedCount: 0,
        rejected: null,
        payloadDigest: importDigest(items),
        createdTime: Date.now(),
        finishedTime: null,
      });
      return { tenantId: 'tenant-a', username, batchId, items };
    };

    it('acknowledges with data true and extraData {batchId, count}; the rows appear once the outbox is relayed', async () => {
      const s = seed();
      const res = await t.post(`${P}/importList`, [dd(s, 1), dd(s, 2, { tenantId: 'evil' })]);
      expect(res).toMatchObject({ httpStatus: 200, status: 200, error: null, data: true });
      expect(Object.keys(res.extraData).sort()).toEqual(['batchId', 'count']);
      expect(res.extraData.count).toBe(2);
      expect(res.extraData.batchId).toMatch(ID_PATTERN);

      await t.drainOutbox();
      const rows = await rowsOf(s);
      expect(rows.map((x) => [x.dataDictionaryCode, x.value, x.tenantId, x.revision, x.createdUsername])).toEqual([
        ['c1', 'v1', 'tenant-a', 1, 'alice'],
        ['c2', 'v2', 'tenant-a', 1, 'alice'],
      ]);
      expect(await rowsOf(s, TENANT_B)).toEqual([]);

      const batch = await batches().findOneBy({ batchId: res.extraData.batchId });
      expect(batch).toMatchObject({
        tenantId: 'tenant-a',
        topic: TOPIC,
        status: 'APPLIED',
        itemCount: 2,
        appliedCount: 2,
        rejected: null,
        createdUsername: 'alice',
      });
      expect(typeof batch!.finishedTime).toBe('number');

      // the outbox row carries the tenant as key and the whole batch as payload (decisions.md)
      const outbox = (await t.dataSource.getRepository(OutboxMessage).findBy({ topic: TOPIC })).find((m) =>
        m.payload.includes(res.extraData.batchId),
      );
      expect(outbox).toMatchObject({ messageKey: 'tenant-a', status: 'SENT' });
      expect(JSON.parse(outbox!.payload)).toMatchObject({
        tenantId: 'tenant-a',
        username: 'alice',
        batchId: res.extraData.batchId,
        items: [{ dataDictionaryCode: 'c1' }, { dataDictionaryCode: 'c2' }],
      });
    });

    it('re-importing the same keys updates the rows instead of duplicating them', async () => {
      const s = seed();
      await t.post(`${P}/importList`, [dd(s, 1), dd(s, 2)]);
      await t.drainOutbox();
      const before = await rowsOf(s);
      const res = await t.post(`${P}/importList`, [dd(s, 1, { value: 'new1' }), dd(s, 2, { value: 'new2' }), dd(s, 3)]);
      expect(res).toMatchObject({ status: 200, data: true, extraData: { count: 3 } });
      await t.drainOutbox();
      const after = await rowsOf(s);
      expect(after.map((x) => [x.dataDictionaryCode, x.value, x.revision])).toEqual([
        ['c1', 'new1', 2],
        ['c2', 'new2', 2],
        ['c3', 'v3', 1],
      ]);
      expect(after.slice(0, 2).map((x) => x.dataDictionaryId)).toEqual(before.map((x) => x.dataDictionaryId));
      expect(await batches().findOneBy({ batchId: res.extraData.batchId })).toMatchObject({
        status: 'APPLIED',
        itemCount: 3,
        appliedCount: 3,
      });
    });

    it('refuses a batch with an invalid row (400 naming it) or a non-array body (1003) without storing a batch', async () => {
      const s = seed();
      const batchesBefore = await batches().count();
      const outboxBefore = await t.dataSource.getRepository(OutboxMessage).count();
      const bad = await t.post(`${P}/importList`, [dd(s, 1), dd(s, 2, { dataDictionaryCode: '' })]);
      expectFailure(bad, 400, `${P}/importList`);
      expect(bad.error).toContain('[1]');
      expect(bad.error).not.toContain('[0]');
      expectFailure(await t.post(`${P}/importList`, dd(s, 1)), 1003, `${P}/importList`);
      await t.drainOutbox();
      expect(await batches().count()).toBe(batchesBefore);
      expect(await t.dataSource.getRepository(OutboxMessage).count()).toBe(outboxBefore);
      expect(await rowsOf(s)).toEqual([]);
    });

    it('needs configuration-data-dictionary:create (403 with only :read), and stores nothing when refused', async () => {
      const s = seed();
      const count = await batches().count();
      const refused = await t.post(`${P}/importList`, [dd(s, 1)], { roles: [], permissions: ['configuration-data-dictionary:read'] });
      expect(refused).toMatchObject({ httpStatus: 403, status: 403, path: `${P}/importList`, data: null });
      expect(await batches().count()).toBe(count);
      const allowed = await t.post(`${P}/importList`, [dd(s, 1)], { roles: [], permissions: ['configuration-data-dictionary:create'] });
      expect(allowed).toMatchObject({ httpStatus: 200, status: 200, data: true, extraData: { count: 1 } });
      await t.drainOutbox();
      expect(await batches().count()).toBe(count + 1);
    });

    it('redelivery of a batch is harmless: applying the same message twice changes the rows once', async () => {
      const s = seed();
      const res = await t.post(`${P}/importList`, [dd(s, 1), dd(s, 2)]);
      await t.drainOutbox();
      const applied = await rowsOf(s);
      expect(applied.map((x) => x.revision)).toEqual([1, 1]);

      // the relayed message of that batch, delivered again (twice)
      const outbox = (await t.dataSource.getRepository(OutboxMessage).findBy({ topic: TOPIC })).find((m) =>
        m.payload.includes(res.extraData.batchId),
      )!;
      expect(outbox).toBeDefined();
      await importer().apply({ key: outbox.messageKey, value: outbox.payload });
      await importer().apply({ key: outbox.messageKey, value: outbox.payload });
      expect(await rowsOf(s)).toEqual(applied);

      // a new batch (changing a value) delivered twice: applied exactly once
      const batchId = `redeliver${counter}`;
      const payload = await registered(batchId, [dd(s, 1, { value: 'once' })]);
      await importer().apply(message(payload));
      const once = await rowsOf(s);
      expect(once[0]).toMatchObject({ value: 'once', revision: 2, lastModifiedUsername: 'carol' });
      await importer().apply(message(payload));
      expect(await rowsOf(s)).toEqual(once);
      expect(await batches().findOneBy({ batchId })).toMatchObject({
        status: 'APPLIED',
        itemCount: 1,
        appliedCount: 1,
        tenantId: 'tenant-a',
      });
    });

    it('the consumer records rows it rejects in the batch outcome and applies the rest', async () => {
      const s = seed();
      const batchId = `partial${counter}`;
      // the request validates rows too: a batch the consumer partly rejects is one whose rules changed in between
      await importer().apply(message(await registered(batchId, [dd(s, 1), dd(s, 2, { dataDictionaryTypeCode: '' })])));
      expect((await rowsOf(s)).map((x) => x.dataDictionaryCode)).toEqual(['c1']);
      const batch = await batches().findOneBy({ batchId });
      expect(batch).toMatchObject({ status: 'APPLIED', itemCount: 2, appliedCount: 1 });
      const rejected = JSON.parse(batch!.rejected!);
      expect(rejected).toEqual([expect.objectContaining({ index: 1 })]);
      expect(rejected[0].error).toContain('dataDictionaryTypeCode');
    });

    it('a poison message is skipped without throwing, recorded apart, and never changes a batch', async () => {
      const s = seed();
      const count = await batches().count();
      await expect(importer().apply(message('{this is not json'))).resolves.toBeUndefined();
      await expect(importer().apply(message('null'))).resolves.toBeUndefined();

      // a payload without items, and one whose items are not objects: under unknown ids, and under a real pending batch's id
      const noItems = `noitems${counter}`;
      await expect(importer().apply(message({ tenantId: 'tenant-a', username: 'carol', batchId: noItems }))).resolves.toBeUndefined();
      const notObjects = `notobjects${counter}`;
      await expect(
        importer().apply(message({ tenantId: 'tenant-a', username: 'carol', batchId: notObjects, items: ['x', 1] })),
      ).resolves.toBeUndefined();
      const pending = await registered(`pending${counter}`, [dd(s, 9)]);
      await expect(importer().apply(message({ ...pending, items: 'not rows' }))).resolves.toBeUndefined();
      for (const batchId of [noItems, notObjects, pending.batchId])
        expect(await rejections(batchId)).toEqual([expect.objectContaining({ claimedTenantId: 'tenant-a', reason: expect.any(String) })]);
      expect(await batches().count()).toBe(count + 1);
      expect(await batches().findOneBy({ batchId: pending.batchId })).toMatchObject({ status: 'PENDING' });

      // the consumer keeps working after poison
      const res = await t.post(`${P}/importList`, [dd(s, 1)]);
      await t.drainOutbox();
      expect(await batches().findOneBy({ batchId: res.extraData.batchId })).toMatchObject({ status: 'APPLIED' });
      expect(await rowsOf(s)).toHaveLength(1);
    });

    it('a poison message in the outbox does not block the relay: later batches are still applied', async () => {
      const s = seed();
      const outboxRepo = t.dataSource.getRepository(OutboxMessage);
      await outboxRepo.insert({
        topic: TOPIC,
        messageKey: 'tenant-a',
        payload: 'definitely not json',
        status: 'PENDING',
        attempts: 0,
        nextAttemptTime: 0,
        createdTime: Date.now(),
        sentTime: null,
      });
      const poisonId = `poison${counter}`;
      await outboxRepo.insert({
        topic: TOPIC,
        messageKey: 'tenant-a',
        payload: JSON.stringify({ tenantId: 'tenant-a', username: 'x', batchId: poisonId, items: 'nope' }),
        status: 'PENDING',
        attempts: 0,
        nextAttemptTime: 0,
        createdTime: Date.now(),
        sentTime: null,
      });
      const res = await t.post(`${P}/importList`, [dd(s, 1), dd(s, 2)]);
      await t.drainOutbox();
      expect(await outboxRepo.countBy({ status: 'PENDING' })).toBe(0);
      expect(await batches().findOneBy({ batchId: poisonId })).toBeNull();
      expect(await rejections(poisonId)).toEqual([expect.objectContaining({ reason: expect.stringContaining('items') })]);
      expect(await batches().findOneBy({ batchId: res.extraData.batchId })).toMatchObject({ status: 'APPLIED', appliedCount: 2 });
      expect((await rowsOf(s)).map((x) => x.dataDictionaryCode)).toEqual(['c1', 'c2']);
    });
  });

  // ---------------------------------------------------------------------------------------------
  // data-dictionary-table/saveOrUpdate
  // ---------------------------------------------------------------------------------------------

  describe('data-dictionary-table/saveOrUpdate', () => {
    const P = `${CONFIG}/data-dictionary-table`;
    const rowsOf = async (s: string, claims?: Claims) =>
      (await listAll('data-dictionary-table', claims)).filter((x) => x.dataDictionaryTypeCode === s);

    it('inserts the first time and updates the live row with the same key the second time', async () => {
      const s = seed();
      const body = {
        dataDictionaryTypeCode: s,
        dataDictionaryCode: 'cn',
        row: '1',
        key: 'capital',
        value: 'Nanjing',
        name: 'Capital',
        sort: 1,
      };
      const first = await t.post(`${P}/saveOrUpdate`, body);
      expect(first).toMatchObject({ httpStatus: 200, status: 200, data: true, extraData: {} });
      const inserted = await rowsOf(s);
      expect(inserted).toHaveLength(1);
      expect(inserted[0]).toMatchObject({ value: 'Nanjing', revision: 1, tenantId: 'tenant-a' });

      const second = await t.post(`${P}/saveOrUpdate`, { ...body, value: 'Beijing', tenantId: 'evil' });
      expect(second).toMatchObject({ status: 200, data: true });
      const updated = await rowsOf(s);
      expect(updated).toHaveLength(1);
      expect(updated[0]).toMatchObject({
        dataDictionaryTableId: inserted[0].dataDictionaryTableId,
        value: 'Beijing',
        revision: 2,
        tenantId: 'tenant-a',
        name: 'Capital',
      });

      // a different key is a new row; another tenant's same key is its own row
      expect(await t.post(`${P}/saveOrUpdate`, { ...body, key: 'population' })).toMatchObject({ status: 200, data: true });
      expect(await t.post(`${P}/saveOrUpdate`, body, TENANT_B)).toMatchObject({ status: 200, data: true });
      expect(await rowsOf(s)).toHaveLength(2);
      expect(await rowsOf(s, TENANT_B)).toEqual([expect.objectContaining({ value: 'Nanjing', revision: 1, tenantId: 'tenant-b' })]);
      expect((await rowsOf(s)).find((x) => x.key === 'capital')).toMatchObject({ value: 'Beijing', revision: 2 });
    });

    it('needs configuration-data-dictionary-table:create (403 with only :read)', async () => {
      const s = seed();
      const body = { dataDictionaryTypeCode: s, dataDictionaryCode: 'cn', row: '1', key: 'k' };
      const refused = await t.post(`${P}/saveOrUpdate`, body, { roles: [], permissions: ['configuration-data-dictionary-table:read'] });
      expect(refused).toMatchObject({ httpStatus: 403, status: 403, path: `${P}/saveOrUpdate`, data: null });
      expect(await rowsOf(s)).toEqual([]);
    });

    it('validates the body like save (400 for a blank key field)', async () => {
      const s = seed();
      const res = await t.post(`${P}/saveOrUpdate`, { dataDictionaryTypeCode: s, dataDictionaryCode: 'cn', row: ' ', key: 'k' });
      expectFailure(res, 400, `${P}/saveOrUpdate`);
      expect(res.error).toContain('row');
      expect(await rowsOf(s)).toEqual([]);
    });
  });

  // ---------------------------------------------------------------------------------------------
  // value-set-table/saveBatch
  // ---------------------------------------------------------------------------------------------

  describe('value-set-table/saveBatch', () => {
    const P = `${CONFIG}/value-set-table`;
    const row = (s: string, i: number, extra: Json = {}): Json => ({
      valueSetTypeCode: s,
      row: String(i),
      key: 'start',
      value: `0${i}:00`,
      name: `Shift ${i}`,
      sort: i,
      ...extra,
    });
    const rowsOf = async (s: string) =>
      (await listAll('value-set-table')).filter((x) => x.valueSetTypeCode === s).sort((a, b) => a.sort - b.sort);

    it('saves every row of the batch', async () => {
      const s = seed();
      const res = await t.post(`${P}/saveBatch`, [row(s, 1), row(s, 2), row(s, 3, { tenantId: 'evil' })]);
      expect(res).toMatchObject({ httpStatus: 200, status: 200, data: true, extraData: {} });
      const rows = await rowsOf(s);
      expect(rows.map((x) => [x.row, x.value, x.tenantId, x.revision])).toEqual([
        ['1', '01:00', 'tenant-a', 1],
        ['2', '02:00', 'tenant-a', 1],
        ['3', '03:00', 'tenant-a', 1],
      ]);
    });

    it('a batch containing an existing key is refused with 422 "Value set table exists" and none of its rows is written', async () => {
      const s = seed();
      await t.post(`${P}/saveBatch`, [row(s, 1)]);
      const res = await t.post(`${P}/saveBatch`, [row(s, 2), row(s, 1, { value: 'changed' }), row(s, 3)]);
      expectFailure(res, 422, `${P}/saveBatch`);
      expect(res.error).toBe('Value set table exists');
      const rows = await rowsOf(s);
      expect(rows.map((x) => [x.row, x.value, x.revision])).toEqual([['1', '01:00', 1]]);

      // a key repeated inside one batch is a duplicate too
      const twice = await t.post(`${P}/saveBatch`, [row(s, 5), row(s, 5)]);
      expectFailure(twice, 422, `${P}/saveBatch`);
      expect(twice.error).toBe('Value set table exists');
      expect(await rowsOf(s)).toHaveLength(1);

      // the same key in another tenant is not a duplicate
      expect(await t.post(`${P}/saveBatch`, [row(s, 1)], TENANT_B)).toMatchObject({ status: 200, data: true });
    });

    it('needs value-set-table:create (403 with only :read)', async () => {
      const s = seed();
      const refused = await t.post(`${P}/saveBatch`, [row(s, 1)], { roles: [], permissions: ['value-set-table:read'] });
      expect(refused).toMatchObject({ httpStatus: 403, status: 403, path: `${P}/saveBatch`, data: null });
      expect(await rowsOf(s)).toEqual([]);
      const allowed = await t.post(`${P}/saveBatch`, [row(s, 1)], { roles: [], permissions: ['value-set-table:create'] });
      expect(allowed).toMatchObject({ httpStatus: 200, status: 200, data: true });
      expect(await rowsOf(s)).toHaveLength(1);
    });

    it('a batch with an invalid row is refused with 400 naming it, and none of its rows is written', async () => {
      const s = seed();
      const res = await t.post(`${P}/saveBatch`, [row(s, 1), row(s, 2), row(s, 3, { key: '' })]);
      expectFailure(res, 400, `${P}/saveBatch`);
      expect(res.error).toContain('[2]');
      expect(res.error).not.toContain('[0]');
      expect(await rowsOf(s)).toEqual([]);
      expectFailure(await t.post(`${P}/saveBatch`, row(s, 1)), 1003, `${P}/saveBatch`);
      expect(await rowsOf(s)).toEqual([]);
    });
  });
});
