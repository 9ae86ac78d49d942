/**
 * Two replicas of main-service over one MariaDB database (docs/messaging.md "Several replicas"):
 * only the holder of the relay lease publishes, so no outbox row goes out twice, and a replica that
 * shuts down hands the lease on at once. MySQL/MariaDB only: in-memory SQLite can't be shared.
 */
import { MessageBus, OutboxMessage } from '@app/common';
import { createTestDatabase, TestDatabase, usingMysql } from '../../support/database';
import { CONFIG, startApp, TestApp } from '../../support/test-app';

const mysqlDescribe = usingMysql() ? describe : describe.skip;
const TOPIC = 'configuration.data-dictionary.import';

mysqlDescribe('outbox relay across replicas', () => {
  let database: TestDatabase;
  let a: TestApp;
  let b: TestApp;
  const published = { a: [] as string[], b: [] as string[] };

  /** Records what a replica's bus really publishes (the real bus still delivers). */
  const record = (app: TestApp, into: string[]) => {
    const bus = app.app.get(MessageBus);
    const publish = bus.publish.bind(bus);
    bus.publish = async (topic, messages) => {
      into.push(...messages.map((m) => m.value));
      return publish(topic, messages);
    };
  };

  beforeAll(async () => {
    database = await createTestDatabase();
    a = await startApp({}, { shared: database });
    b = await startApp({}, { shared: database });
    record(a, published.a);
    record(b, published.b);
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await database?.drop();
  });

  it('publishes each pending row once although both replicas relay at the same time', async () => {
    const outbox = a.dataSource.getRepository(OutboxMessage);
    const ids = Array.from({ length: 40 }, (_, i) => `lease${i}x${Date.now().toString(36)}`);
    const payload = (batchId: string, i: number) =>
      JSON.stringify({
        tenantId: 'tenant-a',
        username: 'alice',
        batchId,
        items: [{ dataDictionaryTypeCode: 'lease', dataDictionaryCode: `c${i}`, name: 'n', sort: i }],
      });
    await outbox.insert(
      ids.map((id, i) => ({
        topic: TOPIC,
        messageKey: 'tenant-a',
        payload: payload(id, i),
        status: 'PENDING' as const,
        attempts: 0,
        nextAttemptTime: 0,
        createdTime: Date.now(),
        sentTime: null,
      })),
    );
    await Promise.all([a.drainOutbox(), b.drainOutbox()]);

    const all = [...published.a, ...published.b].filter((v) => ids.some((id) => v.includes(id)));
    expect(all).toHaveLength(ids.length);
    expect(new Set(all).size).toBe(ids.length);
    // in insertion order
    expect(all.map((v) => JSON.parse(v).batchId)).toEqual(ids);
  });

  it('a replica that shuts down hands the lease on: the other relays at once', async () => {
    await a.close();
    a = undefined as never;
    const res = await b.post(`${CONFIG}/data-dictionary/importList`, [
      { dataDictionaryTypeCode: 'handover', dataDictionaryCode: 'x', name: 'x', sort: 1 },
    ]);
    await b.drainOutbox();
    expect(published.b.some((v) => v.includes(res.extraData.batchId))).toBe(true);
  });
});
