/**
 * A rolling restart behind the gateway: while reads and writes run through it, each main-service replica
 * in turn gets SIGTERM (it drains: readiness 503, in-flight requests finish) and starts again. No request
 * fails, and every acknowledged write is there afterwards.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { call, cluster, Cluster, describeCluster, token, unique } from './cluster-support';

const P = '/main-service/system-api/configuration/data-dictionary';
const WORKERS = 4;

describeCluster('rolling restart of main-service', () => {
  let c: Cluster;
  let auth: string;
  beforeAll(() => {
    c = cluster();
    auth = token(c.jwtSecret);
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
    const load = Promise.all(Array.from({ length: WORKERS }, worker));
    for (const replica of ['1', '2'])
      await promisify(execFile)(join(__dirname, '../../scripts/cluster.sh'), ['restart', 'main-service', replica]);
    running = false;
    await load;
    expect(failures).toEqual([]);
    const stored = await call(`${c.main[0]}${P}/list`, { token: auth, body: { dataDictionaryTypeCode: type, sqlQueryLimit: 1000 } });
    const codes = new Set((stored.data as { dataDictionaryCode: string }[]).map((r) => r.dataDictionaryCode));
    expect(acknowledged.length).toBeGreaterThan(20);
    expect(acknowledged.filter((code) => !codes.has(code))).toEqual([]);
  }, 90_000);
});
