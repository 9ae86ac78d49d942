/**
 * Forged records on the import topic, produced by a Kafka client of the test's own (docs/messaging.md
 * "Consumer"): the consumer applies only the batch the API created, once; a record naming another
 * tenant, an unknown batch or other items changes no batch and no record, and is kept in import_rejection.
 * Runs only with KAFKA_BROKERS and DB_URL (the Kafka leg); skipped elsewhere.
 */
import { ImportBatch, OutboxMessage } from '@app/common';
import { ImportRejection } from '@app/common/messaging/import-rejection.entity';
import { startApp, TestApp } from '../support/test-app';
import { DD, describeKafka, dictionaryRows, produceRaw, rowStats, TOPIC, topicPrefix, waitFor } from './kafka-support';

jest.setTimeout(120_000);

describeKafka('forged import records on Kafka', () => {
  const prefix = topicPrefix();
  let t: TestApp;
  let dbUrl: string;

  beforeAll(async () => {
    // several partitions: the forged records of two tenants travel apart
    t = await startApp({ KAFKA_TOPIC_PREFIX: prefix, KAFKA_TOPIC_PARTITIONS: '3' });
    dbUrl = (t.dataSource.options as { url: string }).url;
  });
  afterAll(async () => {
    await t?.close();
  });

  const batches = () => t.dataSource.getRepository(ImportBatch);
  const outbox = () => t.dataSource.getRepository(OutboxMessage);
  /** Exact comparison here: MariaDB's PAD SPACE would match 'x ' to 'x' in SQL. */
  const rejectionsOf = async (batchId: string) =>
    (await t.dataSource.getRepository(ImportRejection).find({ order: { id: 'ASC' } })).filter((r) => r.claimedBatchId === batchId);
  const importRows = async (rows: object[]) => {
    const res = await t.post(`${DD}/importList`, rows);
    expect(res).toMatchObject({ status: 200, data: true, extraData: { count: rows.length } });
    return res.extraData.batchId as string;
  };
  const settled = (batchId: string) =>
    waitFor(`batch ${batchId} to be applied`, async () =>
      (await batches().findOneBy({ batchId }))?.status === 'APPLIED' ? true : undefined,
    );

  it('refuses forged records (tenant B with an unknown id, the real id with other items, the real id with another tenant) and applies the real batch once', async () => {
    const code = `forge${Date.now().toString(36)}`;
    // hold the relay: a row of a third tenant that backs off for an hour goes first, and nothing overtakes it
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
    const real = dictionaryRows(code, 3, 'real');
    const batchId = await importRows(real);
    const pending = await batches().findOneByOrFail({ batchId });
    expect(pending).toMatchObject({ status: 'PENDING', tenantId: 'tenant-a' });

    const unknownId = `forged${Date.now().toString(36)}`;
    const forged = dictionaryRows(code, 3, 'forged');
    await produceRaw(prefix, [
      { key: 'tenant-b', value: JSON.stringify({ tenantId: 'tenant-b', username: 'mallory', batchId: unknownId, items: forged }) },
      { key: 'tenant-a', value: JSON.stringify({ tenantId: 'tenant-a', username: 'alice', batchId, items: forged }) },
      { key: 'tenant-b', value: JSON.stringify({ tenantId: 'tenant-b', username: 'alice', batchId, items: real }) },
    ]);
    // at least: a record written twice fails the assertions below instead of waiting out the timeout
    await waitFor(
      'the forged records to be refused',
      async () => (await rejectionsOf(unknownId)).length + (await rejectionsOf(batchId)).length >= 3,
    );
    expect((await rejectionsOf(unknownId)).map((r) => [r.claimedTenantId, r.reason])).toEqual([
      ['tenant-b', expect.stringContaining('no batch with this id')],
    ]);
    // records of two tenants travel on different partitions: their rejections come in either order
    const byTenant = (await rejectionsOf(batchId))
      .map((r) => [r.claimedTenantId, r.reason])
      .sort(([a], [b]) => String(a).localeCompare(String(b)));
    expect(byTenant).toEqual([
      ['tenant-a', expect.stringContaining('payload digest')],
      ['tenant-b', expect.stringContaining('tenant')],
    ]);
    expect(await rowStats(dbUrl, 'tenant-a', code)).toMatchObject({ rows: 0 });
    expect(await rowStats(dbUrl, 'tenant-b', code)).toMatchObject({ rows: 0 });
    expect(await batches().findOneByOrFail({ batchId })).toEqual(pending);
    expect(await batches().findOneBy({ batchId: unknownId })).toBeNull();

    // released, the real batch goes out and is applied, with its own rows
    await outbox().delete({ seq: held.identifiers[0].seq });
    await settled(batchId);
    expect(await batches().findOneByOrFail({ batchId })).toMatchObject({
      status: 'APPLIED',
      itemCount: 3,
      appliedCount: 3,
      rejected: null,
    });
    const applied = await rowStats(dbUrl, 'tenant-a', code);
    expect(applied).toEqual({ rows: 3, distinctCodes: 3, minRevision: 1, maxRevision: 1, values: ['real'] });

    // the real record again (a redelivery) and a forgery after it: nothing changes; a marker batch behind them shows they were consumed
    const sent = (await outbox().findBy({ topic: TOPIC })).find((m) => m.payload.includes(batchId))!;
    await produceRaw(prefix, [
      { key: sent.messageKey, value: sent.payload },
      { key: 'tenant-a', value: JSON.stringify({ tenantId: 'tenant-a', username: 'alice', batchId, items: forged }) },
    ]);
    await settled(await importRows(dictionaryRows(`${code}m`, 1)));
    expect(await rowStats(dbUrl, 'tenant-a', code)).toEqual(applied);
    expect(await rowStats(dbUrl, 'tenant-b', code)).toMatchObject({ rows: 0 });
    expect(await batches().findOneByOrFail({ batchId })).toMatchObject({ status: 'APPLIED', appliedCount: 3 });
    expect(await rejectionsOf(batchId)).toHaveLength(3);
  });
});
