/**
 * KAFKA_BROKERS set but no broker answering (docs/messaging.md "Guarantees"): main-service still starts and stays
 * ready, imports are accepted into the outbox and wait there, PENDING, as backlog (each tenant's own), and health
 * details and metrics show the broker down. Needs no broker, so it runs in every leg; test/kafka covers the broker
 * coming back, test/cluster a broker stopped under the replicas.
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

  it('stays ready (its answers need only the database); health details and metrics show the broker down and the backlog', async () => {
    const ready = async () => {
      const res = await t.http().get('/main-service/health/ready');
      return { http: res.status, ...(res.body.data ?? res.body.extraData?.health) };
    };
    // the broker is checked in the background: down once its first check failed
    for (let i = 0; i < 100 && (await ready()).background?.messaging?.broker !== 'down'; i++) await new Promise((r) => setTimeout(r, 100));
    // that the probe does not wait on the broker is timed in test/timing/readiness.spec.ts
    const report = await ready();
    expect(report).toEqual({
      http: 200,
      status: 'ok',
      details: { shutdown: { status: 'up' }, database: { status: 'up' }, schema: { status: 'up' } },
      background: { messaging: { transport: 'kafka', broker: 'down', brokerStateSince: expect.any(Number), outboxBacklog: 3 } },
    });
    const metrics = (await t.http().get('/main-service/metrics')).text;
    expect(metrics).toMatch(/^message_broker_up 0$/m);
    expect(metrics).toMatch(/^outbox_backlog 3$/m);
    expect((await t.http().get('/main-service/health/live')).status).toBe(200);
  });
});
