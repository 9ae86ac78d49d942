/**
 * A Kafka outage under the cluster (docs/operations.md "Endpoints"): the broker is stopped while both replicas
 * of each service run. Every replica stays ready throughout (main-service's answers need only the database;
 * device-service has no messaging), an import through the gateway is answered and waits in the outbox, and
 * each main-service replica shows the broker down and the backlog in its health details and metrics. Once the
 * broker is back the batch is applied and the backlog empties. Also: `scripts/cluster.sh status` reads the
 * ports the cluster was started with. Needs the cluster on Kafka (skipped with CLUSTER_KAFKA=0).
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { call, cluster, Cluster, describeCluster, token, unique } from './cluster-support';

const ROOT = join(__dirname, '../..');
const P = '/main-service/system-api/configuration/data-dictionary';
const run = promisify(execFile);
const kafka = (command: 'start' | 'stop') => run('bash', [join(ROOT, 'scripts/kafka.sh'), command], { timeout: 150_000 });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Messaging {
  transport: string;
  broker?: string;
  outboxBacklog: number | null;
}

/** A replica's readiness: HTTP status and its messaging details (main-service). */
async function ready(base: string, prefix: string): Promise<{ http: number; messaging?: Messaging }> {
  const res = await call(`${base}${prefix}/health/ready`);
  const report = (res.data ?? (res.extraData as { health?: unknown } | undefined)?.health) as
    { background?: { messaging?: Messaging } } | undefined;
  return { http: res.http, messaging: report?.background?.messaging };
}

async function metric(base: string, name: string): Promise<number> {
  const text = await (await fetch(`${base}/main-service/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith(`${name} `));
  return line === undefined ? NaN : Number(line.slice(name.length + 1));
}

async function until<T>(what: string, check: () => Promise<T | undefined>, ms = 60_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(250);
  }
}

describeCluster('the broker stopped under the cluster', () => {
  let c: Cluster;
  beforeAll(() => {
    c = cluster();
  });

  it('scripts/cluster.sh status reports the ports the cluster was started on, without CLUSTER_BASE_PORT set', async () => {
    const env = { ...process.env };
    delete env.CLUSTER_BASE_PORT;
    const { stdout } = await run('bash', [join(ROOT, 'scripts/cluster.sh'), 'status'], { env, timeout: 30_000 });
    expect(stdout).toContain(`gateway   ${c.gateway} running`);
    for (const base of [...c.main, ...c.device]) expect(stdout).toMatch(new RegExp(`port ${new URL(base).port} running`));
  });

  // read at collection only where the cluster runs (its state file exists then)
  (process.env.CLUSTER_URL && cluster().kafka ? it : it.skip)(
    'keeps every replica ready; health details and metrics show the broker down and the backlog; the batch is applied once it is back',
    async () => {
      const replicas = [
        ...c.main.map((base) => ({ base, prefix: '/main-service' })),
        ...c.device.map((base) => ({ base, prefix: '/device-service' })),
      ];
      const unready: string[] = [];
      let polling = true;
      // every replica's readiness, polled for the whole outage
      const poller = (async () => {
        while (polling) {
          for (const { base, prefix } of replicas) {
            const { http } = await ready(base, prefix).catch(() => ({ http: 0 }));
            if (http !== 200) unready.push(`${base}${prefix}: ${http}`);
          }
          await sleep(200);
        }
      })();
      const tenant = unique('outage');
      const auth = token(c.jwtSecret, tenant);
      let brokerStopped = false;
      try {
        await kafka('stop');
        brokerStopped = true;
        for (const base of c.main)
          await until(`${base} to see the broker down`, async () =>
            (await ready(base, '/main-service')).messaging?.broker === 'down' ? true : undefined,
          );

        const rows = [{ dataDictionaryTypeCode: unique('out'), dataDictionaryCode: 'a', name: 'A' }];
        const res = await call(`${c.gateway}${P}/importList`, { token: auth, body: rows });
        expect(res).toMatchObject({ http: 200, status: 200, data: true });
        const batchId = String(res.extraData?.batchId);
        const status = await call(`${c.gateway}${P}/importStatus?batchId=${batchId}`, { token: auth });
        expect(status).toMatchObject({ status: 200, data: { status: 'PENDING' }, extraData: { outboxBacklog: 1 } });
        // each replica (one database) shows the whole backlog, and the broker down, in its details and its metrics
        for (const base of c.main) {
          const { http, messaging } = await ready(base, '/main-service');
          expect({ http, messaging }).toEqual({
            http: 200,
            messaging: { transport: 'kafka', broker: 'down', brokerStateSince: expect.any(Number), outboxBacklog: expect.any(Number) },
          });
          expect(messaging!.outboxBacklog).toBeGreaterThanOrEqual(1);
          expect(await metric(base, 'message_broker_up')).toBe(0);
          expect(await metric(base, 'outbox_backlog')).toBeGreaterThanOrEqual(1);
        }
        for (const base of c.device) expect((await ready(base, '/device-service')).messaging).toBeUndefined();

        await kafka('start');
        brokerStopped = false;
        await until(
          `batch ${batchId} to be applied`,
          async () =>
            ((await call(`${c.gateway}${P}/importStatus?batchId=${batchId}`, { token: auth })).data as { status?: string })?.status ===
              'APPLIED' || undefined,
          120_000,
        );
        for (const base of c.main) {
          await until(`${base} to see the broker up`, async () =>
            (await ready(base, '/main-service')).messaging?.broker === 'up' ? true : undefined,
          );
          expect(await metric(base, 'message_broker_up')).toBe(1);
        }
      } finally {
        polling = false;
        await poller;
        if (brokerStopped) await kafka('start');
      }
      expect(unready).toEqual([]);
    },
    300_000,
  );
});
