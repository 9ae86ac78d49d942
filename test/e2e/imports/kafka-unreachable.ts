/**
 * KAFKA_BROKERS set but no broker answering (docs/messaging.md "Guarantees"): main-service still starts,
 * imports are accepted into the outbox and wait there, PENDING, as backlog (each tenant's own). Needs no broker, so it
 * runs in every leg; test/kafka covers the broker coming back.
 */
import { OutboxMessage } from '@app/common';
import { CONFIG, startApp, TestApp } from '../../support/test-app';

describe('KAFKA_BROKERS set but unreachable', () => {
  let t: TestApp;
  beforeAll(async () => {
    // port 1 on loopback: connections are refused at once
    t = await startApp({ KAFKA_BROKERS: '127.0.0.1:1', KAFKA_TOPIC_PREFIX: 'unreachable.' });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('starts, accepts an import into the outbox, and keeps it pending with backoff', async () => {
    const P = `${CONFIG}/data-dictionary`;
    const res = await t.post(`${P}/importList`, [{ dataDictionaryTypeCode: 'down', dataDictionaryCode: 'a', name: 'A', sort: 1 }]);
    expect(res).toMatchObject({ httpStatus: 200, status: 200, data: true, extraData: { count: 1 } });
    const outbox = t.dataSource.getRepository(OutboxMessage);
    // the relay tried, failed, and scheduled a retry; the row is still pending
    for (let i = 0; i < 200 && !(await outbox.findOneByOrFail({ status: 'PENDING' })).attempts; i++)
      await new Promise((r) => setTimeout(r, 100));
    expect(await outbox.findOneByOrFail({ status: 'PENDING' })).toMatchObject({ attempts: expect.any(Number), sentTime: null });
    expect((await outbox.findOneByOrFail({ status: 'PENDING' })).attempts).toBeGreaterThan(0);
    const status = await t.get(`${P}/importStatus?batchId=${res.extraData.batchId}`);
    expect(status).toMatchObject({ status: 200, data: { status: 'PENDING', appliedCount: 0 }, extraData: { outboxBacklog: 1 } });

    // another tenant's batches wait too, but each tenant sees only its own backlog
    const tenantB = { tenantId: 'tenant-b', sub: 'bob' };
    const other = await t.post(
      `${P}/importList`,
      [{ dataDictionaryTypeCode: 'down', dataDictionaryCode: 'b', name: 'B', sort: 1 }],
      tenantB,
    );
    await t.post(`${P}/importList`, [{ dataDictionaryTypeCode: 'down', dataDictionaryCode: 'c', name: 'C', sort: 1 }], tenantB);
    expect(await outbox.countBy({ status: 'PENDING' })).toBe(3);
    expect((await t.get(`${P}/importStatus?batchId=${res.extraData.batchId}`)).extraData).toEqual({ outboxBacklog: 1 });
    expect((await t.get(`${P}/importStatus?batchId=${other.extraData.batchId}`, tenantB)).extraData).toEqual({ outboxBacklog: 2 });
  });

  it('is not ready while the broker is unreachable (kafka: down), within the probe timeout; live stays 200', async () => {
    const started = Date.now();
    const ready = await t.http().get('/main-service/health/ready');
    expect(Date.now() - started).toBeLessThan(5000);
    expect([ready.status, ready.body.status]).toEqual([503, 503]);
    expect(ready.body.extraData.health.details).toEqual({
      shutdown: { status: 'up' },
      database: { status: 'up' },
      kafka: { status: 'down' },
    });
    expect((await t.http().get('/main-service/health/live')).status).toBe(200);
  });
});
