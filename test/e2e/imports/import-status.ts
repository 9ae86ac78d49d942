/**
 * data-dictionary/importStatus (docs/messaging.md "Outcome"): the outcome of an asynchronous
 * import batch and the caller's tenant's outbox backlog, tenant-scoped, with the resource's read permission.
 * Runs on the embedded in-process bus (SQLite) and on MariaDB; the Kafka leg covers the broker.
 */
import { AsyncImporter, asyncImportTopic, importerToken, ImportBatch, OutboxMessage } from '@app/common';
import { importDigest } from '@app/common/messaging/import-digest';
import { dataDictionaryResource } from '../../../apps/main-service/src/configuration/data-dictionary/data-dictionary.resource';
import { CONFIG, startApp, TestApp } from '../../support/test-app';

const P = `${CONFIG}/data-dictionary`;
const row = (type: string, code: string, extra: Record<string, unknown> = {}) => ({
  dataDictionaryTypeCode: type,
  dataDictionaryCode: code,
  name: code,
  sort: 1,
  ...extra,
});

describe('importStatus of asynchronous imports', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  const status = (batchId: string, claims?: Parameters<TestApp['get']>[1]) =>
    t.get(`${P}/importStatus?batchId=${encodeURIComponent(batchId)}`, claims);

  describe('data-dictionary/importStatus', () => {
    it('shows an applied batch with its counts, and the backlog', async () => {
      const res = await t.post(`${P}/importList`, [row('st1', 'a'), row('st1', 'b')]);
      const batchId = res.extraData.batchId;
      await t.drainOutbox();
      const out = await status(batchId);
      expect(out).toMatchObject({ httpStatus: 200, status: 200, error: null, extraData: { outboxBacklog: 0 } });
      expect(out.data).toEqual({
        batchId,
        status: 'APPLIED',
        itemCount: 2,
        appliedCount: 2,
        rejected: [],
        createdUsername: 'alice',
        createdTime: expect.any(Number),
        finishedTime: expect.any(Number),
      });
    });

    it('lists the rows the consumer rejected, with their index and reason', async () => {
      const importer = t.app.get<AsyncImporter<never>>(importerToken(dataDictionaryResource));
      const batchId = `st${Date.now().toString(36)}`;
      const items = [row('st2', 'a'), row('st2', '')];
      // the request validates rows too, so a batch the consumer partly rejects is written here as the request would (rules changed in between)
      await t.dataSource.getRepository(ImportBatch).insert({
        batchId,
        tenantId: 'tenant-a',
        topic: asyncImportTopic(dataDictionaryResource)!,
        createdUsername: 'carol',
        status: 'PENDING',
        itemCount: 2,
        appliedCount: 0,
        rejected: null,
        payloadDigest: importDigest(items),
        createdTime: Date.now(),
        finishedTime: null,
      });
      await importer.apply({ key: 'tenant-a', value: JSON.stringify({ tenantId: 'tenant-a', username: 'carol', batchId, items }) });
      const out = await status(batchId);
      expect(out.data).toMatchObject({
        status: 'APPLIED',
        itemCount: 2,
        appliedCount: 1,
        rejected: [{ index: 1, error: expect.stringContaining('dataDictionaryCode') }],
      });
    });

    it('counts batches still waiting in the outbox as backlog, and shows them PENDING', async () => {
      const outbox = t.dataSource.getRepository(OutboxMessage);
      const waiting = await outbox.insert({
        topic: asyncImportTopic(dataDictionaryResource)!,
        messageKey: 'tenant-a',
        payload: '{}',
        status: 'PENDING',
        attempts: 0,
        nextAttemptTime: Date.now() + 3_600_000,
        createdTime: Date.now(),
        sentTime: null,
      });
      try {
        const res = await t.post(`${P}/importList`, [row('st3', 'a')]);
        // the batch is behind a row that backs off for an hour: it waits, in order
        const out = await status(res.extraData.batchId);
        expect(out.data).toMatchObject({ status: 'PENDING', itemCount: 1, appliedCount: 0, finishedTime: null });
        expect(out.extraData.outboxBacklog).toBe(2);
      } finally {
        await outbox.delete({ seq: waiting.identifiers[0].seq });
      }
      await t.drainOutbox();
    });

    it('is tenant-scoped: another tenant, and an unknown id, get data null', async () => {
      const res = await t.post(`${P}/importList`, [row('st4', 'a')]);
      await t.drainOutbox();
      expect(await status(res.extraData.batchId, { tenantId: 'tenant-b' })).toMatchObject({ httpStatus: 200, status: 200, data: null });
      expect(await status('noSuchBatch')).toMatchObject({ httpStatus: 200, status: 200, data: null, extraData: { outboxBacklog: 0 } });
    });

    it('needs configuration-data-dictionary:read, and a batchId (1002)', async () => {
      const res = await t.post(`${P}/importList`, [row('st5', 'a')]);
      await t.drainOutbox();
      expect(await status(res.extraData.batchId, { roles: [], permissions: [] })).toMatchObject({
        httpStatus: 403,
        status: 403,
        data: null,
      });
      expect(await status(res.extraData.batchId, { roles: [], permissions: ['configuration-data-dictionary:read'] })).toMatchObject({
        status: 200,
        data: { status: 'APPLIED' },
      });
      expect(await t.get(`${P}/importStatus`)).toMatchObject({ status: 1002, data: null });
    });

    it('exists only for asynchronous imports', async () => {
      expect(await t.get(`${CONFIG}/value-set/importStatus?batchId=x`)).toMatchObject({ httpStatus: 404, status: 404 });
    });
  });
});
