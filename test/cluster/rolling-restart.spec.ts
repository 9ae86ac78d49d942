/**
 * A rolling restart behind the gateway: while reads and writes run through it, each main-service replica
 * in turn is restarted as Kubernetes restarts a pod (scripts/cluster.sh restart: out of the gateway's
 * rotation, SIGTERM, start, ready, back in). No request fails, and every acknowledged write is there
 * afterwards.
 *
 * The load starts with the first restart and keeps many connections opening: a replica that closed its
 * listener while the gateway still routed to it would reset the connections in its accept queue, requests
 * already sent on them included (nginx's "recv() failed (104: Connection reset by peer)", a 502 it does
 * not send again for a POST). Taking it out of the rotation first is what prevents that.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { call, cluster, Cluster, describeCluster, gatewayErrorsSince, gatewayLogEnd, token, unique } from './cluster-support';

const P = '/main-service/system-api/configuration/data-dictionary';
/** Enough callers that connections to a stopping replica would be opening at any instant. */
const WORKERS = 16;
/** PAGE_SIZE_MAX: the stored rows are read page by page, as many as the load wrote. */
const PAGE_SIZE = 1000;

describeCluster('rolling restart of main-service', () => {
  let c: Cluster;
  let auth: string;
  beforeAll(() => {
    c = cluster();
    auth = token(c.jwtSecret, unique('rolling'));
  });

  it('loses no request and no acknowledged write while each replica restarts in turn', async () => {
    const type = unique('roll');
    const acknowledged: string[] = [];
    const failures: string[] = [];
    let running = true;
    let sequence = 0;
    const worker = async () => {
      while (running) {
        const code = `c${++sequence}`;
        const saved = await call(`${c.gateway}${P}/save`, {
          token: auth,
          body: { dataDictionaryTypeCode: type, dataDictionaryCode: code, name: code },
        }).catch((e: Error) => ({ http: 0, status: 0, error: e.message }));
        if (saved.http === 200 && saved.status === 200) acknowledged.push(code);
        else failures.push(`save ${code}: ${JSON.stringify(saved)}`);
        const read = await call(`${c.gateway}${P}/listCache`, { token: auth, body: { dataDictionaryTypeCode: type } }).catch(
          (e: Error) => ({ http: 0, status: 0, error: e.message }),
        );
        if (read.http !== 200 || read.status !== 200) failures.push(`listCache: ${JSON.stringify(read)}`);
      }
    };
    const logFrom = gatewayLogEnd();
    const load = Promise.all(Array.from({ length: WORKERS }, worker));
    for (const replica of ['1', '2'])
      await promisify(execFile)(join(__dirname, '../../scripts/cluster.sh'), ['restart', 'main-service', replica]);
    running = false;
    await load;
    // the gateway's own account of a failed call (a reset connection, no live upstream) comes with it
    expect(failures.length ? [...failures, ...gatewayErrorsSince(logFrom)] : []).toEqual([]);
    expect(acknowledged.length).toBeGreaterThan(20);
    const stored = new Set<string>();
    for (let current = 1, pages = 1; current <= pages; current++) {
      const page = await call(`${c.main[0]}${P}/page`, {
        token: auth,
        body: { dataDictionaryTypeCode: type, current, pageSize: PAGE_SIZE, sqlQuerySorter: { field: 'dataDictionaryCode' } },
      });
      expect(page).toMatchObject({ http: 200, status: 200 });
      for (const row of page.data as { dataDictionaryCode: string }[]) stored.add(row.dataDictionaryCode);
      pages = Number(page.extraData?.pages);
    }
    expect(acknowledged.filter((code) => !stored.has(code))).toEqual([]);
  }, 180_000);
});
