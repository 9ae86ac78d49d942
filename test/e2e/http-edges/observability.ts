/**
 * Operations endpoints and logs (docs/operations.md): health probes in the envelope, Prometheus
 * metrics in text, one JSON log line per request with its id, route, caller and no credentials;
 * on main-service, device-service and both behind the combined server.
 */
import { AppLogging, DrainState, GAUGE_REFRESH_MS, OutboxMessage } from '@app/common';
import { get as httpGet, IncomingMessage } from 'node:http';
import { AddressInfo, connect } from 'node:net';
import request from 'supertest';
import { CombinedServer, createCombinedServer } from '../../../apps/local/src/combined-server';
import { usingMysql } from '../../support/database';
import { fakeClock } from '../../support/fake-clock';
import { DEVICE_API, DeviceTestApp, SECRET, startDeviceApp, TEST_DEVICE_TOKEN_SECRET, uniqueNo } from '../../support/device-app';
import { LogCapture, metricValue } from '../../support/observability';
import { withProcessEnv } from '../../support/process-env';
import { CONFIG, startApp, TestApp } from '../../support/test-app';
import { bearer, TEST_JWT_SECRET } from '../../support/tokens';

type Http = () => ReturnType<typeof request>;

const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8';

/**
 * The root URLs of one service, whatever hosts it (docs/contract.md, the exceptions to the envelope): a browser
 * is sent on to the service's Swagger UI (303), every other caller gets the 404 envelope; both vary by Accept.
 */
function expectRootUrls(http: Http, prefix: string, roots: string[]): void {
  it.each(roots)(`sends a browser asking for %s on to ${prefix}/swagger-ui (303, Vary: Accept)`, async (root) => {
    const res = await http().get(root).set('Accept', BROWSER_ACCEPT);
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe(`${prefix}/swagger-ui`);
    expect(res.headers.vary).toMatch(/\bAccept\b/);
    const ui = await http().get(res.headers.location).set('Accept', BROWSER_ACCEPT).redirects(1);
    expect([ui.status, ui.type]).toEqual([200, 'text/html']);
  });

  it.each(roots)('answers %s with the 404 envelope to curl, a JSON client and a caller without Accept', async (root) => {
    for (const accept of ['*/*', 'application/json', 'application/json, text/html', undefined]) {
      const req = http().get(root);
      const res = await (accept === undefined ? req : req.set('Accept', accept));
      expect({ accept, status: res.status }).toEqual({ accept, status: 404 });
      expect(res.body).toMatchObject({ status: 404, error: 'Not found', data: null });
      expect(res.headers.vary).toMatch(/\bAccept\b/);
    }
  });
}

/** The probes and the metrics endpoint of one service, whatever hosts it. */
function expectOperationsEndpoints(http: Http, prefix: string): void {
  // only main-service imports the messaging module (async imports)
  const withMessaging = prefix === '/main-service';
  it(`${prefix}/health/live answers 200 in the envelope, anonymously`, async () => {
    const res = await http().get(`${prefix}/health/live`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 200, error: null, data: { status: 'ok' } });
  });

  it(`${prefix}/health/ready checks the database, anonymously`, async () => {
    const res = await http().get(`${prefix}/health/ready`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      status: 200,
      error: null,
      data: { status: 'ok', details: { database: { status: 'up' }, schema: { status: 'up' }, shutdown: { status: 'up' } } },
    });
    expect(Object.keys(res.body.data.details).sort()).toEqual(['database', 'schema', 'shutdown']);
    // main-service shows its message bus (in-process: KAFKA_BROKERS unset) as background; device-service has none
    expect(res.body.data.background).toEqual(withMessaging ? { messaging: { transport: 'in-process', outboxBacklog: 0 } } : undefined);
  });

  it(`${prefix}/metrics is Prometheus text, not the envelope, counting requests by route template`, async () => {
    const route = `${prefix}/health/live`;
    const before = await http().get(`${prefix}/metrics`);
    expect(before.status).toBe(200);
    expect(before.headers['content-type']).toMatch(/^text\/plain/);
    expect(before.text).not.toMatch(/^\{/);
    for (let i = 0; i < 3; i++) await http().get(route);
    await http().get(`${prefix}/no-such-route/12345`);
    const after = (await http().get(`${prefix}/metrics`)).text;
    const labels = { method: 'GET', route, status: '200' };
    expect(metricValue(after, 'http_requests_total', labels) - metricValue(before.text, 'http_requests_total', labels)).toBe(3);
    expect(metricValue(after, 'http_request_duration_seconds_count', labels)).toBeGreaterThanOrEqual(3);
    expect(metricValue(after, 'http_requests_total', { route: 'unmatched', status: '404' })).toBeGreaterThanOrEqual(1);
    // the probed path never becomes a label value (process metrics may contain the digits by chance)
    const labelSets = after
      .split('\n')
      .filter((line) => !line.startsWith('#'))
      .map((line) => /\{(.*)\}/.exec(line)?.[1] ?? '');
    expect(labelSets.filter((labels) => labels.includes('no-such-route') || labels.includes('12345'))).toEqual([]);
    expect(after).toMatch(/^process_cpu_user_seconds_total /m);
    if (withMessaging) expect(after).toMatch(/^outbox_backlog 0$/m);
    else expect(after).not.toMatch(/^outbox_backlog/m);
    expect(after).not.toMatch(/^message_broker_up/m); // no broker configured
  });

  it(`${prefix}/metrics labels a route by its registered path: case variants of a path add no series`, async () => {
    const variants = ['HEALTH/live', 'Health/Live', 'health/LIVE', 'hEaLtH/lIvE', 'HeAlTh/LiVe/'];
    for (const variant of variants) expect((await http().get(`${prefix}/${variant}`)).status).toBe(200);
    const text = (await http().get(`${prefix}/metrics`)).text;
    const routes = new Set([...text.matchAll(/route="([^"]*)"/g)].map((m) => m[1]));
    expect([...routes].filter((route) => route.toLowerCase().includes('/health/live'))).toEqual([`${prefix}/health/live`]);
  });

  it(`${prefix}: the probes are in the OpenAPI document, without security; the metrics (a scraper's endpoint) are not`, async () => {
    const doc = (await http().get(`${prefix}/v3/api-docs`)).body;
    for (const path of ['health/live', 'health/ready']) {
      const op = doc.paths[`${prefix}/${path}`]?.get;
      expect({ path, documented: !!op, security: op?.security }).toEqual({ path, documented: true, security: [] });
    }
    expect(doc.paths[`${prefix}/metrics`]).toBeUndefined();
  });
}

describe('main-service', () => {
  const logs = new LogCapture();
  let t: TestApp;
  beforeAll(async () => (t = await startApp({ LOG_LEVEL: 'log' }, { logTo: logs })));
  afterAll(async () => {
    if (t && !t.dataSource.isInitialized) await t.dataSource.initialize().catch(() => undefined);
    await t?.close();
  });
  const http: Http = () => t.http();

  expectOperationsEndpoints(http, '/main-service');
  expectRootUrls(http, '/main-service', ['/', '/main-service', '/main-service/']);

  it('counts unauthenticated case variants of an operation under its registered route only', async () => {
    const route = `${CONFIG}/data-dictionary-type/count`;
    const variants = ['SyStem-api', 'SYSTEM-API', 'system-API', 'System-Api'].map((v) => route.replace('system-api', v));
    for (const path of variants) expect((await http().post(path).send({})).status).toBe(401);
    const text = (await http().get('/main-service/metrics')).text;
    const routes = new Set([...text.matchAll(/route="([^"]*)"/g)].map((m) => m[1]));
    expect([...routes].filter((r) => r.toLowerCase() === route)).toEqual([route]);
    expect(metricValue(text, 'http_requests_total', { route, status: '401' })).toBeGreaterThanOrEqual(variants.length);
  });

  it('reports the MySQL pool on MySQL/MariaDB only', async () => {
    const text = (await http().get('/main-service/metrics')).text;
    expect(/^db_pool_connections_max [1-9]\d*$/m.test(text)).toBe(usingMysql());
    expect(/^db_pool_connections_opened_total \d+$/m.test(text)).toBe(usingMysql());
    expect(/^db_pool_requests_queued_total \d+$/m.test(text)).toBe(usingMysql());
  });

  it('counts the pending messages and the outbox at most once per interval, however often and at once /metrics is scraped; a change shows after it', async () => {
    const clock = fakeClock();
    const queries = jest.spyOn(t.dataSource.logger, 'logQuery');
    const outbox = t.dataSource.getRepository(OutboxMessage);
    const statements = () => {
      const sql = queries.mock.calls.map(([text]) => text);
      return {
        outbox: sql.filter((text) => /COUNT\(.*\bFROM\W+outbox_message\W/s.test(text)).length,
        messages: sql.filter((text) => /COUNT\(.*\bFROM\W+message_(email|sms)\W/s.test(text)).length,
      };
    };
    const scrape = async () => (await http().get('/main-service/metrics')).text;
    try {
      clock.advance(GAUGE_REFRESH_MS); // past what earlier scrapes counted
      for (let i = 0; i < 5; i++) expect(await scrape()).toMatch(/^outbox_backlog 0$/m);
      for (const text of await Promise.all(Array.from({ length: 5 }, scrape))) expect(text).toMatch(/^outbox_backlog 0$/m);
      // one read: the outbox's COUNT, and one COUNT per channel
      expect(statements()).toEqual({ outbox: 1, messages: 2 });

      // a row the relay leaves alone (backing off): shown once the interval has passed
      await outbox.insert({
        topic: 'metrics-probe',
        messageKey: 'k',
        payload: '{}',
        status: 'PENDING',
        nextAttemptTime: Date.now() + 3_600_000,
        createdTime: Date.now(),
        sentTime: null,
      });
      expect(await scrape()).toMatch(/^outbox_backlog 0$/m);
      clock.advance(GAUGE_REFRESH_MS);
      expect(await scrape()).toMatch(/^outbox_backlog 1$/m);
      expect(await scrape()).toMatch(/^messages_pending\{channel="email"\} 0$/m);
      expect(statements()).toEqual({ outbox: 2, messages: 4 });
    } finally {
      queries.mockRestore();
      jest.useRealTimers();
      await outbox.delete({ topic: 'metrics-probe' });
    }
  });

  it('logs one line per request: id from X-Request-Id, method, route, status, duration, tenant and user', async () => {
    const res = await http()
      .post(`${CONFIG}/data-dictionary-type/count`)
      .set('Authorization', bearer())
      .set('X-Request-Id', 'log-trace-1')
      .send({});
    expect(res.headers['x-request-id']).toBe('log-trace-1');
    const line = logs.requestLine('log-trace-1');
    expect(line).toMatchObject({
      level: 30,
      service: 'main-service',
      msg: 'request completed',
      req: { method: 'POST', url: `${CONFIG}/data-dictionary-type/count` },
      route: `${CONFIG}/data-dictionary-type/count`,
      status: 200,
      tenantId: 'tenant-a',
      user: 'alice',
    });
    expect(typeof line!.durationMs).toBe('number');
    expect(typeof line!.time).toBe('string');
  });

  it('logs a business failure (HTTP 200, body 422) at warn with its body status, and counts it under body_status="422"', async () => {
    const route = `${CONFIG}/data-dictionary-type/save`;
    const body = { dataDictionaryTypeCode: 'observed-duplicate' };
    expect((await http().post(route).set('Authorization', bearer()).send(body)).body.status).toBe(200);
    const res = await http().post(route).set('Authorization', bearer()).set('X-Request-Id', 'log-business-1').send(body);
    expect([res.status, res.body.status]).toEqual([200, 422]);
    expect(logs.requestLine('log-business-1')).toMatchObject({ level: 40, msg: 'request refused', route, status: 200, bodyStatus: 422 });
    const text = (await http().get('/main-service/metrics')).text;
    expect(metricValue(text, 'http_requests_total', { route, status: '200', body_status: '422' })).toBe(1);
    expect(metricValue(text, 'http_requests_total', { route, status: '200', body_status: '200' })).toBeGreaterThanOrEqual(1);
    // answers without an envelope (this metrics text) are labelled none
    const again = (await http().get('/main-service/metrics')).text;
    expect(metricValue(again, 'http_requests_total', { route: '/main-service/metrics', body_status: 'none' })).toBeGreaterThanOrEqual(1);
  });

  it('logs refusals outside a business rule (401, 404) at warn and a success at info, each with its body status', async () => {
    await http().post(`${CONFIG}/data-dictionary-type/count`).set('X-Request-Id', 'log-401-1').send({});
    await http().get('/main-service/no-such-route').set('X-Request-Id', 'log-404-1');
    await http().get('/main-service/health/live').set('X-Request-Id', 'log-ok-1');
    expect(logs.requestLine('log-401-1')).toMatchObject({ level: 40, status: 401, bodyStatus: 401 });
    expect(logs.requestLine('log-404-1')).toMatchObject({ level: 40, status: 404, bodyStatus: 404 });
    expect(logs.requestLine('log-ok-1')).toMatchObject({ level: 30, msg: 'request completed', status: 200, bodyStatus: 200 });
  });

  it('compresses the OpenAPI document when the client accepts it, not otherwise; small answers stay uncompressed', async () => {
    const server = t.app.getHttpServer();
    if (!server.listening) await new Promise<void>((resolve) => server.listen(0, resolve));
    const { port } = server.address() as AddressInfo;
    // node's own client: supertest always asks for gzip
    const fetchRaw = (path: string, headers: Record<string, string>) =>
      new Promise<{ res: IncomingMessage; bytes: number }>((resolve, reject) =>
        httpGet({ host: '127.0.0.1', port, path, headers }, (res) => {
          let bytes = 0;
          res.on('data', (chunk: Buffer) => (bytes += chunk.length));
          res.on('end', () => resolve({ res, bytes }));
        }).on('error', reject),
      );
    const plain = await fetchRaw('/main-service/v3/api-docs', {});
    expect(plain.res.headers['content-encoding']).toBeUndefined();
    for (const encoding of ['gzip', 'br']) {
      const packed = await fetchRaw('/main-service/v3/api-docs', { 'Accept-Encoding': encoding });
      expect(packed.res.headers['content-encoding']).toBe(encoding);
      expect(packed.bytes).toBeLessThan(plain.bytes / 5);
    }
    const small = await fetchRaw('/main-service/health/live', { 'Accept-Encoding': 'gzip, br' });
    expect(small.res.headers['content-encoding']).toBeUndefined();
  });

  it('logs a request whose client left before the answer as abandoned (499), at warn level: no fault', async () => {
    const server = t.app.getHttpServer();
    if (!server.listening) await new Promise<void>((resolve) => server.listen(0, resolve));
    const { port } = server.address() as AddressInfo;
    // the body never arrives in full: the client goes away while the server still reads it
    const socket = connect(port, '127.0.0.1', () =>
      socket.write(
        `POST ${CONFIG}/data-dictionary-type/count HTTP/1.1\r\nHost: x\r\nAuthorization: ${bearer()}\r\n` +
          'X-Request-Id: log-aborted-1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"a":',
        () => setTimeout(() => socket.destroy(), 50),
      ),
    );
    for (let i = 0; i < 100 && !logs.requestLine('log-aborted-1'); i++) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(logs.requestLine('log-aborted-1')).toMatchObject({
      level: 40,
      msg: 'request abandoned',
      status: 499,
      req: { method: 'POST', url: `${CONFIG}/data-dictionary-type/count` },
      error: 'the client left before the response was sent',
    });
  });

  it('generates the request id when X-Request-Id is missing or malformed, and echoes it', async () => {
    for (const given of [undefined, 'bad id with spaces', 'x'.repeat(129)]) {
      const req = http().get('/main-service/health/live');
      const res = await (given === undefined ? req : req.set('X-Request-Id', given));
      const id = res.headers['x-request-id'];
      expect(id).toMatch(/^[0-9a-f-]{36}$/);
      expect(logs.requestLine(id)).toMatchObject({ route: '/main-service/health/live', status: 200 });
    }
  });

  it('never logs the Authorization header, cookies or secret body fields', async () => {
    const auth = bearer({ sub: 'carol' });
    await http()
      .post(`${CONFIG}/data-dictionary-type/save`)
      .set('Authorization', auth)
      .set('Cookie', 'session=cookie-secret-value')
      .set('X-Request-Id', 'log-redact-1')
      .send({
        dataDictionaryTypeCode: 'redact',
        password: 'body-password-value',
        accessKeySecret: 'body-access-key-value',
        secret: 'body-secret-value',
      });
    const line = logs.requestLine('log-redact-1');
    // the request line names the request, not its headers
    expect(line).toMatchObject({ user: 'carol', req: { method: 'POST', url: `${CONFIG}/data-dictionary-type/save` } });
    expect(Object.keys(line!.req as object).sort()).toEqual(['method', 'remoteAddress', 'url']);
    expect(line).not.toHaveProperty('res');
    for (const leaked of [
      auth.slice('Bearer '.length),
      'cookie-secret-value',
      'body-password-value',
      'body-access-key-value',
      'body-secret-value',
    ])
      expect(logs.text()).not.toContain(leaked);
    // and in any object a service logs
    t.app
      .get(AppLogging)
      .logger.warn(
        { body: { password: 'p1-value', accessKeySecret: 'a1-value', secret: 's1-value' }, password: 'p2-value' },
        'redaction probe',
      );
    const probe = logs.lines.find((l) => l.msg === 'redaction probe');
    expect(probe).toMatchObject({
      body: { password: '[Redacted]', accessKeySecret: '[Redacted]', secret: '[Redacted]' },
      password: '[Redacted]',
    });
  });

  it('ready → HTTP 503, body 503, with each check in extraData and no driver text, when the database is gone; the fault is logged with the request id', async () => {
    await t.dataSource.destroy();
    const res = await http().get('/main-service/health/ready').set('X-Request-Id', 'ready-down-1');
    expect(res.status).toBe(503);
    expect(res.body).toMatchObject({ status: 503, error: 'Service unavailable', path: '/main-service/health/ready', data: null });
    expect(res.body.extraData.health).toEqual({
      status: 'error',
      details: { database: { status: 'down' }, schema: { status: 'up' }, shutdown: { status: 'up' } },
      // the backlog cannot be counted without the database; the bus still shows
      background: { messaging: { transport: 'in-process', outboxBacklog: null } },
    });
    expect(JSON.stringify(res.body)).not.toMatch(/SELECT|ECONN|QueryFailed|stack/i);
    expect((await http().get('/main-service/health/live')).status).toBe(200);

    await http().post(`${CONFIG}/data-dictionary-type/count`).set('Authorization', bearer()).set('X-Request-Id', 'fault-trace-1').send({});
    const faultLines = logs.lines.filter((l) => l.requestId === 'fault-trace-1');
    expect(faultLines.find((l) => l.context === 'Exceptions')).toMatchObject({ level: 50, tenantId: 'tenant-a', user: 'alice' });
    expect(faultLines.find((l) => l.route)).toMatchObject({ level: 50, status: 503 });
    expect(JSON.stringify(faultLines)).not.toMatch(/\bSELECT\b|\bFROM\b|"stack"/);
    await t.dataSource.initialize();
    expect((await http().get('/main-service/health/ready')).status).toBe(200);
  });

  it('ready → 503 as soon as shutdown begins (shutdown: down), the database still up', async () => {
    t.app.get(DrainState).begin();
    const res = await http().get('/main-service/health/ready');
    expect(res.status).toBe(503);
    expect(res.body.extraData.health.details).toEqual({
      database: { status: 'up' },
      schema: { status: 'up' },
      shutdown: { status: 'down' },
    });
  });
});

describe('METRICS_ENABLED=false', () => {
  let t: TestApp;
  beforeAll(async () => (t = await startApp({ METRICS_ENABLED: 'false' })));
  afterAll(() => t?.close());

  it('answers 404 (envelope) at /metrics; the probes still answer', async () => {
    const res = await t.http().get('/main-service/metrics');
    expect([res.status, res.body.status]).toEqual([404, 404]);
    expect((await t.http().get('/main-service/health/ready')).status).toBe(200);
  });
});

describe('device-service', () => {
  const logs = new LogCapture();
  let d: DeviceTestApp;
  beforeAll(async () => (d = await startDeviceApp({ LOG_LEVEL: 'log' }, { logTo: logs })));
  afterAll(() => d?.close());

  expectOperationsEndpoints(() => d.http(), '/device-service');
  expectRootUrls(() => d.http(), '/device-service', ['/', '/device-service/']);

  it('logs device calls without their secret or token, naming the device and its tenant', async () => {
    const no = await d.register('device', uniqueNo('DAD-LOG'), SECRET);
    const token = await d.token('device', no, SECRET);
    const res = await d
      .http()
      .get(`${DEVICE_API}/getByDataAcquisitionDeviceNo`)
      .query({ dataAcquisitionDeviceNo: no, token })
      .set('X-Request-Id', 'device-log-1');
    expect(res.body.status).toBe(200);
    const line = logs.requestLine('device-log-1');
    expect(line).toMatchObject({
      status: 200,
      tenantId: 'tenant-a',
      user: `device:${no}`,
      route: `${DEVICE_API}/getByDataAcquisitionDeviceNo`,
    });
    expect(line!.req.url).toBe(`${DEVICE_API}/getByDataAcquisitionDeviceNo?dataAcquisitionDeviceNo=${no}&token=[Redacted]`);
    expect(logs.text()).toContain('secret=[Redacted]');
    for (const leaked of [SECRET, token]) expect(logs.text()).not.toContain(leaked);

    // percent-encoded names are the same parameters to the service, and masked all the same
    const encoded = await d
      .http()
      .get(`${DEVICE_API}/getByDataAcquisitionDeviceNo?dataAcquisitionDeviceNo=${no}&%74oken=${token}`)
      .set('X-Request-Id', 'device-log-2');
    expect(encoded.body.status).toBe(200);
    expect(logs.requestLine('device-log-2')!.req.url).toBe(
      `${DEVICE_API}/getByDataAcquisitionDeviceNo?dataAcquisitionDeviceNo=${no}&%74oken=[Redacted]`,
    );
    const issued = await d
      .http()
      .get(`${DEVICE_API}/getGenerationTokenKeyByDataAcquisitionDeviceNo?dataAcquisitionDeviceNo=${no}&%73ecret=${SECRET}`)
      .set('X-Request-Id', 'device-log-3');
    expect(issued.body).toMatchObject({ status: 200, data: { token: expect.any(String) } });
    expect(logs.requestLine('device-log-3')!.req.url).toContain('&%73ecret=[Redacted]');
    for (const leaked of [SECRET, token, issued.body.data.token]) expect(logs.text()).not.toContain(leaked);
  });
});

(usingMysql() ? describe.skip : describe)('combined server (SQLite)', () => {
  let combined: CombinedServer;
  const mainLogs = new LogCapture();
  const deviceLogs = new LogCapture();
  const http: Http = () => request(combined.server);

  beforeAll(async () => {
    combined = await withProcessEnv(
      { SQLITE_DIR: ':memory:', JWT_SECRET: TEST_JWT_SECRET, DEVICE_TOKEN_SECRET: TEST_DEVICE_TOKEN_SECRET, LOG_LEVEL: 'log' },
      createCombinedServer,
    );
    combined.apps[0].get(AppLogging).captureTo(mainLogs);
    combined.apps[1].get(AppLogging).captureTo(deviceLogs);
  });
  afterAll(() => combined?.close());

  expectOperationsEndpoints(http, '/main-service');
  expectOperationsEndpoints(http, '/device-service');
  expectRootUrls(http, '/main-service', ['/', '/main-service/']);
  expectRootUrls(http, '/device-service', ['/device-service/']);

  it('keeps each service in its own registry and log', async () => {
    await http().get('/device-service/health/live').set('X-Request-Id', 'combined-device-1');
    await http().get('/main-service/health/live').set('X-Request-Id', 'combined-main-1');
    const [main, device] = [(await http().get('/main-service/metrics')).text, (await http().get('/device-service/metrics')).text];
    expect(main).not.toContain('/device-service/');
    expect(device).not.toContain('/main-service/');
    expect(deviceLogs.requestLine('combined-device-1')).toMatchObject({ service: 'device-service', route: '/device-service/health/live' });
    expect(mainLogs.requestLine('combined-main-1')).toMatchObject({ service: 'main-service', route: '/main-service/health/live' });
    expect(mainLogs.requestLine('combined-device-1')).toBeUndefined();
  });
});
