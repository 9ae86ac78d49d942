/**
 * data-dictionary/importList over a real Kafka broker and MariaDB (docs/messaging.md):
 * exactly-once application of a 10,000-row batch, harmless redelivery, poison messages refused, recorded
 * apart and skipped, no loss or reordering while the broker is down, and exactly once across a killed service.
 * Runs only with KAFKA_BROKERS and DB_URL (the Kafka leg of .ci/run); skipped elsewhere.
 */
import { spawn } from 'node:child_process';
import { AddressInfo, createServer } from 'node:net';
import request from 'supertest';
import { Like } from 'typeorm';
import { OutboxMessage } from '@app/common';
import { ImportRejection } from '@app/common/messaging/import-rejection.entity';
import { createTestDatabase, TestDatabase } from '../support/database';
import { startApp, TestApp } from '../support/test-app';
import { bearer, TEST_JWT_SECRET } from '../support/tokens';
import {
  broker,
  DD,
  describeKafka,
  dictionaryRows,
  ensureBuilt,
  partitionsOf,
  produceRaw,
  rowStats,
  ROOT,
  topicPrefix,
  waitFor,
} from './kafka-support';

jest.setTimeout(240_000);

type Outcome = { batchId: string; status: string; itemCount: number; appliedCount: number; rejected: { index: number; error: string }[] };

describeKafka('data-dictionary import over Kafka', () => {
  const prefix = topicPrefix();
  let t: TestApp;
  let dbUrl: string;
  let seedNo = 0;
  const type = () => `kt${++seedNo}x${Date.now().toString(36)}`;

  const outcome = async (batchId: string, tenantId = 'tenant-a') => {
    const res = await t.get(`${DD}/importStatus?batchId=${batchId}`, { tenantId });
    expect(res).toMatchObject({ httpStatus: 200, status: 200 });
    return { batch: res.data as Outcome | null, backlog: res.extraData.outboxBacklog as number };
  };
  const settled = (batchId: string, tenantId = 'tenant-a') =>
    waitFor(`batch ${batchId} to be applied`, async () => {
      const { batch } = await outcome(batchId, tenantId);
      return batch && batch.status !== 'PENDING' ? batch : undefined;
    });
  const importRows = async (rows: object[], tenantId = 'tenant-a') => {
    const res = await t.post(`${DD}/importList`, rows, { tenantId });
    expect(res).toMatchObject({ httpStatus: 200, status: 200, data: true, extraData: { count: rows.length } });
    return res.extraData.batchId as string;
  };

  beforeAll(async () => {
    t = await startApp({ KAFKA_TOPIC_PREFIX: prefix, KAFKA_TOPIC_PARTITIONS: '3' });
    dbUrl = (t.dataSource.options as { url: string }).url;
  });
  afterAll(async () => {
    await t?.close();
  });

  it('a 10,000-row import is applied exactly once, and its outcome and the backlog are readable', async () => {
    const code = type();
    const batchId = await importRows(dictionaryRows(code, 10_000));
    const batch = await settled(batchId);
    expect(batch).toMatchObject({ batchId, status: 'APPLIED', itemCount: 10_000, appliedCount: 10_000, rejected: [] });
    expect(await rowStats(dbUrl, 'tenant-a', code)).toEqual({
      rows: 10_000,
      distinctCodes: 10_000,
      minRevision: 1,
      maxRevision: 1,
      values: ['v'],
    });
    expect(await rowStats(dbUrl, 'tenant-b', code)).toMatchObject({ rows: 0 });
    expect((await outcome(batchId)).backlog).toBe(0);
    // another tenant does not see the batch
    expect((await outcome(batchId, 'tenant-b')).batch).toBeNull();
    // the topic was created on first use with KAFKA_TOPIC_PARTITIONS partitions
    expect(await partitionsOf(prefix)).toBe(3);
  });

  it('the same batch delivered again changes nothing', async () => {
    const code = type();
    const rows = dictionaryRows(code, 500);
    const batchId = await importRows(rows);
    await settled(batchId);
    const before = await rowStats(dbUrl, 'tenant-a', code);

    // the identical message again (twice), from another producer, followed by a marker batch on the same key (same partition, later offset)
    const { payload: value } = await t.dataSource
      .getRepository(OutboxMessage)
      .findOneByOrFail({ payload: Like(`%"batchId":"${batchId}"%`) });
    await produceRaw(prefix, [
      { key: 'tenant-a', value },
      { key: 'tenant-a', value },
    ]);
    const marker = await importRows(dictionaryRows(type(), 1));
    expect(await settled(marker)).toMatchObject({ status: 'APPLIED' });

    expect(await rowStats(dbUrl, 'tenant-a', code)).toEqual(before);
    expect(before).toMatchObject({ rows: 500, maxRevision: 1, values: ['v'] });
    expect((await outcome(batchId)).batch).toMatchObject({ status: 'APPLIED', appliedCount: 500 });
  });

  it('a poison message is refused, recorded apart and skipped; the batches behind it are applied', async () => {
    const poisonId = `poison${Date.now().toString(36)}`;
    await produceRaw(prefix, [
      { key: 'tenant-a', value: '{not json' },
      { key: 'tenant-a', value: JSON.stringify({ tenantId: 'tenant-a', username: 'x', batchId: poisonId, items: 'not rows' }) },
    ]);
    const code = type();
    const behind = await importRows(dictionaryRows(code, 3));
    expect(await settled(behind)).toMatchObject({ status: 'APPLIED', appliedCount: 3 });
    // no batch of that id was created by the API: nothing shows in importStatus, the refusal is in import_rejection
    expect((await outcome(poisonId)).batch).toBeNull();
    const refused = await t.dataSource.getRepository(ImportRejection).findBy({ claimedBatchId: poisonId });
    expect(refused).toEqual([expect.objectContaining({ claimedTenantId: 'tenant-a', reason: expect.stringContaining('items') })]);
    expect(await rowStats(dbUrl, 'tenant-a', code)).toMatchObject({ rows: 3 });
  });

  it('with Kafka stopped, imports still succeed and wait in the outbox; once it is back all are applied, in order, once', async () => {
    const code = type();
    await broker('stop');
    let restarted = false;
    try {
      const first = await importRows(dictionaryRows(code, 2_000, 'first'));
      const second = await importRows(dictionaryRows(code, 2_000, 'second'));
      const otherTenant = await importRows(dictionaryRows(code, 1_000, 'b'), 'tenant-b');
      for (const [id, tenant] of [
        [first, 'tenant-a'],
        [second, 'tenant-a'],
        [otherTenant, 'tenant-b'],
      ]) {
        expect((await outcome(id, tenant)).batch).toMatchObject({ status: 'PENDING' });
      }
      // each tenant's own batches waiting in the outbox
      expect((await outcome(first)).backlog).toBe(2);
      expect((await outcome(otherTenant, 'tenant-b')).backlog).toBe(1);
      // the relay tried, failed and backs off; nothing was marked sent
      await waitFor(
        'a failed publish attempt',
        async () => (await t.dataSource.query('SELECT MAX(attempts) AS a FROM outbox_message WHERE status = ?', ['PENDING']))[0].a > 0,
      );
      expect((await outcome(first)).backlog).toBe(2);
      expect((await outcome(otherTenant, 'tenant-b')).backlog).toBe(1);

      await broker('start');
      restarted = true;
      for (const [id, tenant] of [
        [first, 'tenant-a'],
        [second, 'tenant-a'],
        [otherTenant, 'tenant-b'],
      ]) {
        expect(await settled(id, tenant)).toMatchObject({ status: 'APPLIED', rejected: [] });
      }
      // the second batch of the tenant was applied after the first: its values won, each row updated once
      expect(await rowStats(dbUrl, 'tenant-a', code)).toEqual({
        rows: 2_000,
        distinctCodes: 2_000,
        minRevision: 2,
        maxRevision: 2,
        values: ['second'],
      });
      expect(await rowStats(dbUrl, 'tenant-b', code)).toEqual({
        rows: 1_000,
        distinctCodes: 1_000,
        minRevision: 1,
        maxRevision: 1,
        values: ['b'],
      });
      expect((await outcome(first)).backlog).toBe(0);
    } finally {
      if (!restarted) await broker('start');
    }
  });
});

describeKafka('a main-service killed while it imports', () => {
  const prefix = topicPrefix();
  let database: TestDatabase;
  let t: TestApp | undefined;

  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await t?.close();
    await database?.drop();
  });

  const freePort = () =>
    new Promise<number>((resolve) => {
      const server = createServer().listen(0, '127.0.0.1', () => {
        const { port } = server.address() as AddressInfo;
        server.close(() => resolve(port));
      });
    });

  it('applies the batch exactly once after a replacement starts', async () => {
    const main = ensureBuilt();
    const port = await freePort();
    const env = {
      ...process.env,
      ...database.env,
      KAFKA_TOPIC_PREFIX: prefix,
      PORT: String(port),
      JWT_SECRET: TEST_JWT_SECRET,
      LOG_LEVEL: 'error',
    };
    const migrate = spawn(process.execPath, [main.replace(/main\.js$/, 'migrate.js')], { cwd: ROOT, env, stdio: 'ignore' });
    expect(await new Promise((resolve) => migrate.on('exit', resolve))).toBe(0);

    const child = spawn(process.execPath, [main], { cwd: ROOT, env, stdio: 'ignore' });
    const exited = new Promise((resolve) => child.on('exit', resolve));
    try {
      const base = `http://127.0.0.1:${port}`;
      await waitFor(
        'the service to answer',
        async () =>
          (
            await request(base)
              .get('/main-service/v3/api-docs')
              .catch(() => undefined)
          )?.status === 200,
        60_000,
      );
      const code = `killed${Date.now().toString(36)}`;
      const res = await request(base).post(`${DD}/importList`).set('Authorization', bearer()).send(dictionaryRows(code, 10_000));
      expect(res.body).toMatchObject({ status: 200, data: true, extraData: { count: 10_000 } });
      const batchId = res.body.extraData.batchId as string;

      // killed without warning as soon as the batch left the outbox: while the consumer is (or is about to be) applying it
      const connection = await (await import('mysql2/promise')).createConnection(database.env.DB_URL.replace(/^mariadb:/, 'mysql:'));
      try {
        await waitFor('the batch to be published', async () => {
          const [rows] = (await connection.query("SELECT COUNT(*) AS n FROM outbox_message WHERE status = 'SENT'")) as unknown as [
            { n: number }[],
          ];
          return Number(rows[0].n) === 1;
        });
      } finally {
        await connection.end();
      }
      child.kill('SIGKILL');
      await exited;

      t = await startApp({ KAFKA_TOPIC_PREFIX: prefix }, { shared: database });
      const batch = await waitFor('the replacement to apply the batch', async () => {
        const { data } = await t!.get(`${DD}/importStatus?batchId=${batchId}`);
        return data && data.status !== 'PENDING' ? data : undefined;
      });
      expect(batch).toMatchObject({ status: 'APPLIED', itemCount: 10_000, appliedCount: 10_000, rejected: [] });
      expect(await rowStats(database.env.DB_URL, 'tenant-a', code)).toEqual({
        rows: 10_000,
        distinctCodes: 10_000,
        minRevision: 1,
        maxRevision: 1,
        values: ['v'],
      });
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
  });
});
