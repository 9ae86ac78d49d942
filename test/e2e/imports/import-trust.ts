/**
 * The import consumer applies only batches the API created (docs/messaging.md "Consumer"): a message
 * must match its import_batch row (id, topic, tenant and key, user, item count, items digest); anything
 * else is recorded in import_rejection and changes no batch and no record. importStatus counts only the
 * caller's tenant's backlog. On the in-process bus (SQLite, MariaDB); test/kafka covers a real broker.
 */
import { AsyncImporter, importerToken, ImportBatch, OutboxMessage } from '@app/common';
import { importDigest } from '@app/common/messaging/import-digest';
import { IMPORT_REJECTIONS_KEPT, ImportRejection } from '@app/common/messaging/import-rejection.entity';
import { ImportTrust1795470318204 } from '@app/common/messaging/migrations/1795470318204-ImportTrust';
import { dataDictionaryResource } from '../../../apps/main-service/src/configuration/data-dictionary/data-dictionary.resource';
import { usingMysql } from '../../support/database';
import { CONFIG, startApp, TestApp } from '../../support/test-app';

const P = `${CONFIG}/data-dictionary`;
const TOPIC = 'configuration.data-dictionary.import';
const TENANT_B = { tenantId: 'tenant-b', sub: 'bob' };
const row = (type: string, code: string, name = code) => ({ dataDictionaryTypeCode: type, dataDictionaryCode: code, name, sort: 1 });

describe('import trust', () => {
  let t: TestApp;
  let seq = 0;
  const type = () => `tr${++seq}x${Date.now().toString(36)}`;
  beforeAll(async () => {
    t = await startApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  const importer = (): AsyncImporter<never> => t.app.get(importerToken(dataDictionaryResource), { strict: false });
  const batches = () => t.dataSource.getRepository(ImportBatch);
  const rejections = () => t.dataSource.getRepository(ImportRejection);
  const outbox = () => t.dataSource.getRepository(OutboxMessage);
  const apply = (payload: unknown, key: string) =>
    importer().apply({ key, value: typeof payload === 'string' ? payload : JSON.stringify(payload) });
  const rowsOf = async (typeCode: string, tenantId: string) =>
    (await t.dataSource.query(
      'SELECT data_dictionary_code AS code, name, revision FROM configuration_data_dictionary WHERE tenant_id = ? AND data_dictionary_type_code = ? ORDER BY data_dictionary_code',
      [tenantId, typeCode],
    )) as { code: string; name: string; revision: number }[];
  /** Compared here: MariaDB's PAD SPACE would match 'x ' to 'x' in SQL. */
  const rejectionsOf = async (claimedBatchId: string) =>
    (await rejections().find({ order: { id: 'ASC' } })).filter((r) => r.claimedBatchId === claimedBatchId);

  /**
   * Holds every later outbox row back (in order, nothing overtakes it): a row of a third tenant that
   * backs off for an hour. Released by deleting it.
   */
  async function holdOutbox(): Promise<() => Promise<void>> {
    const held = await outbox().insert({
      topic: TOPIC,
      messageKey: 'tenant-hold',
      payload: '{}',
      status: 'PENDING',
      attempts: 0,
      nextAttemptTime: Date.now() + 3_600_000,
      createdTime: Date.now(),
      sentTime: null,
    });
    return async () => {
      await outbox().delete({ seq: held.identifiers[0].seq });
      await t.drainOutbox();
    };
  }

  describe('the consumer applies only batches the API created', () => {
    it('refuses forged messages (unknown id, other items, other tenant, other count or user, unreadable) without changing anything; applies the real batch once', async () => {
      const code = type();
      const release = await holdOutbox();
      let released = false;
      try {
        const real = [row(code, 'a', 'real A'), row(code, 'b', 'real B')];
        const res = await t.post(`${P}/importList`, real);
        expect(res).toMatchObject({ status: 200, data: true, extraData: { count: 2 } });
        const batchId = res.extraData.batchId as string;
        const before = await batches().findOneByOrFail({ batchId });
        expect(before).toMatchObject({ status: 'PENDING', tenantId: 'tenant-a', payloadDigest: importDigest(real) });

        const forged = [row(code, 'a', 'forged A'), row(code, 'b', 'forged B')];
        const unknownId = `forged${Date.now().toString(36)}`;
        const cases: [string, unknown, string, string][] = [
          [
            unknownId,
            { tenantId: 'tenant-b', username: 'mallory', batchId: unknownId, items: forged },
            'tenant-b',
            'no batch with this id',
          ],
          [batchId, { tenantId: 'tenant-a', username: 'alice', batchId, items: forged }, 'tenant-a', 'payload digest'],
          [batchId, { tenantId: 'tenant-b', username: 'alice', batchId, items: real }, 'tenant-b', 'tenant'],
          [batchId, { tenantId: 'tenant-b', username: 'alice', batchId, items: real }, 'tenant-a', 'tenant'],
          [batchId, { tenantId: 'tenant-a', username: 'alice', batchId, items: real }, 'tenant-b', 'tenant'],
          // MariaDB compares 'tenant-a ' equal to 'tenant-a': the check must not
          [batchId, { tenantId: 'tenant-a ', username: 'alice', batchId, items: real }, 'tenant-a ', 'tenant'],
          [
            `${batchId} `,
            { tenantId: 'tenant-a', username: 'alice', batchId: `${batchId} `, items: real },
            'tenant-a',
            'no batch with this id',
          ],
          [batchId, { tenantId: 'tenant-a', username: 'alice', batchId, items: [...real, row(code, 'c')] }, 'tenant-a', 'item count'],
          [batchId, { tenantId: 'tenant-a', username: 'mallory', batchId, items: real }, 'tenant-a', 'username'],
          [batchId, { tenantId: 'tenant-a', username: 'alice', batchId, items: 'not rows' }, 'tenant-a', 'items'],
        ];
        for (const [, payload, key] of cases) await expect(apply(payload, key)).resolves.toBeUndefined();

        // nothing changed: no record in either tenant, the real batch untouched, no batch for the unknown id
        expect(await rowsOf(code, 'tenant-a')).toEqual([]);
        expect(await rowsOf(code, 'tenant-b')).toEqual([]);
        expect(await batches().findOneByOrFail({ batchId })).toEqual(before);
        expect(await batches().findOneBy({ batchId: unknownId })).toBeNull();
        expect((await t.get(`${P}/importStatus?batchId=${unknownId}`, TENANT_B)).data).toBeNull();
        // each refusal is recorded apart, with the claimed values and the reason
        const recorded = [...(await rejectionsOf(unknownId)), ...(await rejectionsOf(batchId)), ...(await rejectionsOf(`${batchId} `))];
        expect(recorded).toHaveLength(cases.length);
        expect(await rejectionsOf(unknownId)).toEqual([
          expect.objectContaining({
            topic: TOPIC,
            messageKey: 'tenant-b',
            claimedTenantId: 'tenant-b',
            reason: expect.stringContaining('no batch with this id'),
          }),
        ]);
        for (const [claimedBatchId, payload, key, reason] of cases) {
          const claimedTenantId = (payload as { tenantId: string }).tenantId;
          expect(
            recorded.some(
              (r) =>
                r.claimedBatchId === claimedBatchId &&
                r.claimedTenantId === claimedTenantId &&
                r.messageKey === key &&
                r.reason.includes(reason),
            ),
          ).toBe(true);
        }

        await release();
        released = true;
        expect(await rowsOf(code, 'tenant-a')).toEqual([
          { code: 'a', name: 'real A', revision: 1 },
          { code: 'b', name: 'real B', revision: 1 },
        ]);
        expect(await batches().findOneByOrFail({ batchId })).toMatchObject({
          status: 'APPLIED',
          appliedCount: 2,
          itemCount: 2,
          rejected: null,
        });

        // redelivery of the real message changes nothing; a forgery after it is refused and changes nothing
        const sent = (await outbox().findBy({ topic: TOPIC })).find((m) => m.payload.includes(batchId))!;
        const applied = await batches().findOneByOrFail({ batchId });
        await importer().apply({ key: sent.messageKey, value: sent.payload });
        await apply({ tenantId: 'tenant-a', username: 'alice', batchId, items: forged }, 'tenant-a');
        expect(await rowsOf(code, 'tenant-a')).toEqual([
          { code: 'a', name: 'real A', revision: 1 },
          { code: 'b', name: 'real B', revision: 1 },
        ]);
        expect(await batches().findOneByOrFail({ batchId })).toEqual(applied);
        expect(await rejectionsOf(batchId)).toHaveLength(cases.length - 2 + 1);
      } finally {
        if (!released) await release();
      }
    });

    it('applies a batch whose items were serialised with another key order (the digest is over canonical JSON)', async () => {
      const code = type();
      const release = await holdOutbox();
      try {
        const res = await t.post(`${P}/importList`, [row(code, 'a')]);
        const batchId = res.extraData.batchId as string;
        const reordered = { sort: 1, name: 'a', dataDictionaryCode: 'a', dataDictionaryTypeCode: code };
        await apply({ items: [reordered], batchId, username: 'alice', tenantId: 'tenant-a' }, 'tenant-a');
        expect(await batches().findOneByOrFail({ batchId })).toMatchObject({ status: 'APPLIED', appliedCount: 1 });
        expect(await rowsOf(code, 'tenant-a')).toEqual([{ code: 'a', name: 'a', revision: 1 }]);
      } finally {
        await release();
      }
      expect(await rowsOf(code, 'tenant-a')).toEqual([{ code: 'a', name: 'a', revision: 1 }]);
    });

    it('refuses a message for a batch that has no digest (created before digests were recorded) and leaves it pending', async () => {
      const code = type();
      const batchId = `nodigest${Date.now().toString(36)}`;
      const items = [row(code, 'a')];
      await batches().insert({
        batchId,
        tenantId: 'tenant-a',
        topic: TOPIC,
        createdUsername: 'alice',
        status: 'PENDING',
        itemCount: 1,
        appliedCount: 0,
        rejected: null,
        payloadDigest: null,
        createdTime: Date.now(),
        finishedTime: null,
      });
      await apply({ tenantId: 'tenant-a', username: 'alice', batchId, items }, 'tenant-a');
      expect(await batches().findOneByOrFail({ batchId })).toMatchObject({ status: 'PENDING', appliedCount: 0 });
      expect(await rejectionsOf(batchId)).toEqual([expect.objectContaining({ reason: expect.stringContaining('no payload digest') })]);
      expect(await rowsOf(code, 'tenant-a')).toEqual([]);
    });

    it('keeps the rejection record bounded: the oldest rows go', async () => {
      const old = await rejections().insert({
        topic: TOPIC,
        messageKey: 'k',
        claimedBatchId: 'old',
        claimedTenantId: null,
        reason: 'r',
        receivedTime: 1,
      });
      const oldId = Number(old.identifiers[0].id);
      await rejections().insert({
        id: oldId + IMPORT_REJECTIONS_KEPT,
        topic: TOPIC,
        messageKey: 'k',
        claimedBatchId: 'recent',
        claimedTenantId: null,
        reason: 'r',
        receivedTime: 2,
      });
      await apply('{not json', 'tenant-a');
      expect(await rejections().findOneBy({ claimedBatchId: 'old' })).toBeNull();
      expect(await rejections().findOneBy({ claimedBatchId: 'recent' })).not.toBeNull();
      expect(await rejections().findOne({ where: {}, order: { id: 'DESC' } })).toMatchObject({
        claimedBatchId: null,
        reason: 'payload is not JSON',
      });
      expect(await rejections().count()).toBeLessThanOrEqual(IMPORT_REJECTIONS_KEPT);
    });
  });

  describe('importStatus outboxBacklog', () => {
    it("counts only the caller's tenant's batches not yet relayed", async () => {
      const code = type();
      const release = await holdOutbox();
      try {
        const a = await t.post(`${P}/importList`, [row(code, 'a')]);
        await t.post(`${P}/importList`, [row(code, 'b1')], TENANT_B);
        const b = await t.post(`${P}/importList`, [row(code, 'b2')], TENANT_B);
        expect((await t.get(`${P}/importStatus?batchId=${a.extraData.batchId}`)).extraData).toEqual({ outboxBacklog: 1 });
        expect((await t.get(`${P}/importStatus?batchId=${b.extraData.batchId}`, TENANT_B)).extraData).toEqual({ outboxBacklog: 2 });
        // a tenant with nothing pending sees none of the others' backlog
        expect(await t.get(`${P}/importStatus?batchId=none`, { tenantId: 'tenant-c' })).toMatchObject({
          status: 200,
          data: null,
          extraData: { outboxBacklog: 0 },
        });
      } finally {
        await release();
      }
      expect((await t.get(`${P}/importStatus?batchId=none`, TENANT_B)).extraData).toEqual({ outboxBacklog: 0 });
    });
  });

  (usingMysql() ? describe : describe.skip)('upgrading a database with batches in flight (MySQL/MariaDB migration)', () => {
    it('gives a pending batch the digest of its outbox row, so it is still applied after the upgrade', async () => {
      const code = type();
      const batchId = `legacy${Date.now().toString(36)}`;
      const items = [row(code, 'a'), row(code, 'b')];
      const payload = JSON.stringify({ tenantId: 'tenant-a', username: 'alice', batchId, items });
      const runner = t.dataSource.createQueryRunner();
      try {
        const migration = new ImportTrust1795470318204();
        await migration.down(runner);
        // as the previous version stored it: no digest column
        await runner.query(
          "INSERT INTO import_batch (batch_id, tenant_id, topic, created_username, status, item_count, applied_count, created_time) VALUES (?, 'tenant-a', ?, 'alice', 'PENDING', 2, 0, ?)",
          [batchId, TOPIC, Date.now()],
        );
        await runner.query(
          "INSERT INTO outbox_message (topic, message_key, payload, status, attempts, next_attempt_time, created_time) VALUES (?, 'tenant-a', ?, 'SENT', 1, 0, ?)",
          [TOPIC, payload, Date.now()],
        );
        await migration.up(runner);
      } finally {
        await runner.release();
      }
      expect(await batches().findOneByOrFail({ batchId })).toMatchObject({ status: 'PENDING', payloadDigest: importDigest(items) });
      await apply(payload, 'tenant-a');
      expect(await batches().findOneByOrFail({ batchId })).toMatchObject({ status: 'APPLIED', appliedCount: 2 });
      expect((await rowsOf(code, 'tenant-a')).map((r) => r.code)).toEqual(['a', 'b']);
    });
  });
});
