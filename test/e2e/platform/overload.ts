/**
 * Admission before work (contract.md "Overload"): over its in-flight limit a replica refuses a request before reading
 * its body, after a bounded wait, with 503 + Retry-After and the busy envelope, counted in a metric and summed up in
 * one warn line instead of a request line; a request whose client left while it waited never runs; the probes are
 * answered ahead of admission; a tenant under its share goes first; callers the replica has not verified yet are
 * admitted within a budget of their own. A slot is held by a request whose body is still on its way: admitted, it
 * keeps its place until the body arrives. On SQLite and on MySQL/MariaDB.
 */
import { request as httpRequest, IncomingMessage } from 'node:http';
import { serverConnection, usingMysql } from '../../support/database';
import { metricValue, LogCapture } from '../../support/observability';
import { bearer } from '../../support/tokens';
import { CONFIG, listenOnLoopback, startApp, TestApp } from '../../support/test-app';

const DDT = `${CONFIG}/data-dictionary-type`;
const WAIT_MS = 300;

interface Answer {
  status: number;
  headers: IncomingMessage['headers'];
  body: { status?: number; error?: string; localizedError?: string; path?: string; data?: unknown };
  ms: number;
}

describe('admission under overload', () => {
  const logs = new LogCapture();
  let t: TestApp;
  let origin: string;
  const tenantA = bearer({ tenantId: 'tenant-a' });
  const tenantB = bearer({ tenantId: 'tenant-b' });

  /** One request on a connection of its own; `body` is sent whole, or `held` first and the rest when told. */
  function send(
    method: string,
    path: string,
    options: { authorization?: string; body?: string; hold?: boolean; headers?: Record<string, string> } = {},
  ) {
    const started = Date.now();
    const body = options.body ?? '';
    const req = httpRequest(`${origin}${path}`, {
      method,
      agent: false,
      headers: {
        ...(options.authorization ? { authorization: options.authorization } : {}),
        ...(body || options.hold ? { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) } : {}),
        ...options.headers,
      },
    });
    const answer = new Promise<Answer>((resolve, reject) => {
      req.on('response', (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString();
          resolve({ status: res.statusCode!, headers: res.headers, body: text ? JSON.parse(text) : {}, ms: Date.now() - started });
        });
      });
      req.on('error', reject);
    });
    if (options.hold) req.write(body.slice(0, 1));
    else req.end(body);
    return { answer, finish: () => req.end(body.slice(1)), abort: () => req.destroy() };
  }

  /** A save whose body arrives only when `finish` is called: it holds its admission until then. */
  const holdASlot = (code: string, authorization = tenantA) =>
    send('POST', `${DDT}/save`, {
      authorization,
      hold: true,
      body: JSON.stringify({ dataDictionaryTypeCode: code, dataDictionaryTypeName: code }),
    });
  const page = (authorization: string) => send('POST', `${DDT}/page`, { authorization, body: '{"current":1,"pageSize":10}' });
  const metrics = async () => (await t.http().get('/main-service/metrics')).text;
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
  const total = async () => (await t.post(`${DDT}/page`, { current: 1, pageSize: 1 })).extraData.total as number;

  const boot = async (env: Record<string, string> = {}) => {
    t = await startApp({ ADMISSION_MAX_IN_FLIGHT: '1', ADMISSION_WAIT_MS: String(WAIT_MS), LOG_LEVEL: 'info', ...env }, { logTo: logs });
    origin = await listenOnLoopback(t);
    // both tenants' tokens verified once: admission knows their tenants from now on
    expect((await page(tenantA).answer).status).toBe(200);
    expect((await page(tenantB).answer).status).toBe(200);
  };

  describe('at a limit of one', () => {
    beforeAll(() => boot());
    afterAll(() => t?.close());

    it('refuses a request over the limit after its wait, before reading its body: 503, Retry-After, the busy envelope', async () => {
      const before = await total();
      const holder = holdASlot('HOLDER-1');
      await sleep(50);
      // a body announced and never sent: only a refusal that does not read it can answer
      const refused = send('POST', `${DDT}/save`, {
        authorization: tenantA,
        hold: true,
        body: '{"never":"sent"}',
        headers: { 'accept-language': 'de' },
      });
      const answer = await refused.answer;
      expect({ status: answer.status, retryAfter: answer.headers['retry-after'], body: answer.body }).toEqual({
        status: 503,
        retryAfter: '1',
        body: expect.objectContaining({
          status: 503,
          error: 'Service busy, retry after 1 s',
          localizedError: 'Dienst ausgelastet, bitte nach 1 s erneut versuchen',
          path: `${DDT}/save`,
          data: null,
        }),
      });
      expect(answer.ms).toBeGreaterThanOrEqual(WAIT_MS - 20);
      refused.abort();
      holder.finish();
      expect((await holder.answer).body.status).toBe(200);
      expect(await total()).toBe(before + 1);
      expect(metricValue(await metrics(), 'http_requests_refused_total', { reason: 'busy' })).toBeGreaterThanOrEqual(1);
      // no request line for the refusal: one warn line a second says how many there were
      await sleep(1100);
      expect(logs.lines.some((l) => l.route !== undefined && l.status === 503)).toBe(false);
      expect(logs.lines.some((l) => /refused \d+ requests for load/.test(String(l.msg)))).toBe(true);
    });

    it('serves a request that waited less than its budget once a slot frees', async () => {
      const holder = holdASlot('HOLDER-2');
      await sleep(50);
      const waiting = page(tenantA);
      await sleep(WAIT_MS / 3);
      holder.finish();
      const [held, served] = await Promise.all([holder.answer, waiting.answer]);
      expect([held.body.status, served.status, served.body.status]).toEqual([200, 200, 200]);
    });

    it('never runs a request whose client left while it waited', async () => {
      await t.post(`${DDT}/save`, { dataDictionaryTypeCode: 'KEPT', dataDictionaryTypeName: 'kept' });
      const rows = (await t.post(`${DDT}/page`, { current: 1, pageSize: 100 })).data as {
        dataDictionaryTypeId: string;
        dataDictionaryTypeCode: string;
      }[];
      const id = rows.find((r) => r.dataDictionaryTypeCode === 'KEPT')!.dataDictionaryTypeId;
      const holder = holdASlot('HOLDER-3');
      await sleep(50);
      // a write with nothing more to read: only admission can keep it from running once its client left
      const leaving = send('DELETE', `${DDT}/removeById?id=${id}`, { authorization: tenantA });
      leaving.answer.catch(() => undefined);
      await sleep(50);
      leaving.abort();
      await sleep(50);
      holder.finish();
      await holder.answer;
      await sleep(100);
      expect((await t.get(`${DDT}/getById?id=${id}`)).data).not.toBeNull();
      // the metrics call itself is the one in flight
      const text = await metrics();
      const gauge = (name: string) => Number(text.match(new RegExp(`^${name} (\\d+)$`, 'm'))?.[1]);
      expect([gauge('http_requests_in_flight'), gauge('http_requests_waiting')]).toEqual([1, 0]);
    });

    it('answers the probes ahead of admission while every slot is taken', async () => {
      const holder = holdASlot('HOLDER-4');
      await sleep(50);
      const [live, ready] = await Promise.all([
        send('GET', '/main-service/health/live').answer,
        send('GET', '/main-service/health/ready').answer,
      ]);
      expect([live.status, live.body.status, ready.status, ready.body.status]).toEqual([200, 200, 200, 200]);
      expect(Math.max(live.ms, ready.ms)).toBeLessThan(WAIT_MS);
      holder.finish();
      await holder.answer;
    });

    it('gives a freed slot to a tenant under its share before a tenant with more waiting', async () => {
      const holder = holdASlot('HOLDER-5', tenantA);
      await sleep(50);
      const order: string[] = [];
      const flood = [page(tenantA), page(tenantA)].map((r) => r.answer.then((a) => (order.push('a'), a)));
      await sleep(20);
      const quiet = page(tenantB).answer.then((a) => (order.push('b'), a));
      await sleep(20);
      holder.finish();
      await Promise.all([holder.answer, quiet, ...flood]);
      expect(order[0]).toBe('b');
    });
  });

  it('admits callers it has not verified within their own budget, while known tenants go on', async () => {
    const app = await startApp({ ADMISSION_MAX_IN_FLIGHT: '4', ADMISSION_WAIT_MS: String(WAIT_MS), ADMISSION_UNVERIFIED_PER_SECOND: '1' });
    origin = await listenOnLoopback(app);
    // the budget's one for this second: tenant-a's token, verified and known from now on
    expect((await page(tenantA).answer).status).toBe(200);
    const forged = `${tenantA.slice(0, -4)}AAAA`;
    // the same token under a lower-case scheme, which the guard accepts, is the same known caller
    const lowerCase = tenantA.replace(/^Bearer /, 'bearer ');
    const [refused, known, knownLowerCase] = await Promise.all([page(forged).answer, page(tenantA).answer, page(lowerCase).answer]);
    expect([refused.status, refused.headers['retry-after'], known.status, knownLowerCase.status]).toEqual([503, '1', 200, 200]);
    await sleep(1000);
    // within the next second's budget: verified, and refused by the guard as any bad token is
    const verified = await page(forged).answer;
    expect([verified.status, verified.body.status]).toEqual([401, 401]);
    await app.close();
  });

  (usingMysql() ? it : it.skip)('refuses for load a request that gets no pool connection within its wait (MySQL/MariaDB)', async () => {
    // two connections, one kept for background work: one for requests, and four may be admitted
    const app = await startApp({
      ADMISSION_MAX_IN_FLIGHT: '4',
      ADMISSION_WAIT_MS: String(WAIT_MS),
      DB_POOL_SIZE: '2',
      DB_POOL_RESERVED: '1',
    });
    origin = await listenOnLoopback(app);
    expect((await page(tenantA).answer).status).toBe(200);
    const other = await serverConnection();
    await other.query(`LOCK TABLES \`${app.dataSource.driver.database}\`.\`configuration_data_dictionary_type\` WRITE`);
    try {
      // holds the requests' one connection, waiting for the lock
      const blocked = page(tenantA);
      await sleep(100);
      const refused = await page(tenantA).answer;
      expect([refused.status, refused.headers['retry-after'], refused.body.status, refused.body.error]).toEqual([
        503,
        '1',
        503,
        'Service busy, retry after 1 s',
      ]);
      // background work and readiness have the reserve meanwhile
      expect((await send('GET', '/main-service/health/ready').answer).status).toBe(200);
      await other.query('UNLOCK TABLES');
      expect((await blocked.answer).status).toBe(200);
    } finally {
      await other.query('UNLOCK TABLES');
      await other.end();
      await app.close();
    }
  });
});
