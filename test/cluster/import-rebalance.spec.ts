/**
 * Imports while the consumer group rebalances: batches of several tenants (so they spread over the
 * topic's partitions) are sent through the gateway while main-service replica 2 restarts, leaving the
 * consumer group and joining it again. Every acknowledged batch is applied exactly once: APPLIED with
 * all its rows, each row stored once and at revision 1 (a batch applied twice would raise it).
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { call, cluster, Cluster, describeCluster, gatewayErrorsSince, gatewayLogEnd, token, unique } from './cluster-support';

const P = '/main-service/system-api/configuration/data-dictionary';
const TENANTS = 4;
const BATCHES_PER_TENANT = 6;
const ROWS = 50;

interface Sent {
  tenant: string;
  batchId: string;
}

describeCluster('imports during a consumer-group rebalance', () => {
  let c: Cluster;
  beforeAll(() => {
    c = cluster();
  });

  it('applies every acknowledged batch exactly once while a replica leaves and joins', async () => {
    const type = unique('reb');
    const tenants = Array.from({ length: TENANTS }, (_, i) => unique(`rebalance${i}`));
    const sent: Sent[] = [];
    const logFrom = gatewayLogEnd();
    const sendRound = async (b: number) => {
      for (const tenant of tenants) {
        const rows = Array.from({ length: ROWS }, (_, r) => ({
          dataDictionaryTypeCode: type,
          dataDictionaryCode: `b${b}r${r}`,
          name: `n${r}`,
        }));
        const res = await call(`${c.gateway}${P}/importList`, { token: token(c.jwtSecret, tenant), body: rows });
        // the gateway's own account of a failed call (a reset connection, no live upstream) comes with it
        expect({ ...res, gateway: res.http === 200 ? [] : gatewayErrorsSince(logFrom) }).toMatchObject({
          http: 200,
          status: 200,
          data: true,
          gateway: [],
        });
        sent.push({ tenant, batchId: String(res.extraData?.batchId) });
      }
    };
    const sendRest = async () => {
      for (let b = 1; b < BATCHES_PER_TENANT; b++) await sendRound(b);
    };
    // one round before the restart, the others while it runs
    await sendRound(0);
    await Promise.all([sendRest(), promisify(execFile)(join(__dirname, '../../scripts/cluster.sh'), ['restart', 'main-service', '2'])]);
    expect(sent).toHaveLength(TENANTS * BATCHES_PER_TENANT);

    const deadline = Date.now() + 60_000;
    for (const { tenant, batchId } of sent) {
      for (;;) {
        const status = await call(`${c.gateway}${P}/importStatus?batchId=${batchId}`, { token: token(c.jwtSecret, tenant) });
        const batch = status.data as { status?: string; itemCount?: number; appliedCount?: number } | null;
        if (batch?.status === 'APPLIED') {
          expect(batch).toMatchObject({ itemCount: ROWS, appliedCount: ROWS });
          break;
        }
        if (batch?.status && batch.status !== 'PENDING') throw new Error(`batch ${batchId}: ${JSON.stringify(batch)}`);
        if (Date.now() > deadline) throw new Error(`batch ${batchId} not applied: ${JSON.stringify(batch)}`);
        await new Promise((r) => setTimeout(r, 200));
      }
    }
    for (const tenant of tenants) {
      const auth = token(c.jwtSecret, tenant);
      const count = await call(`${c.gateway}${P}/count`, { token: auth, body: { dataDictionaryTypeCode: type } });
      expect(count.data).toBe(BATCHES_PER_TENANT * ROWS);
      const stored = await call(`${c.gateway}${P}/list`, { token: auth, body: { dataDictionaryTypeCode: type, sqlQueryLimit: 1000 } });
      expect(new Set((stored.data as { revision: number }[]).map((r) => r.revision))).toEqual(new Set([1]));
    }
  }, 180_000);
});
