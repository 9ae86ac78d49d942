/**
 * Small compressed bodies cannot stall the process. A gzip body of about 16 KB on the wire that inflates to
 * 16 MB of `[[],[],...]` is answered without being read on an unknown route or without a valid credential
 * (both services), and refused at the value bound on an import route with a valid token; the largest bodies
 * the bounds admit (in values, in bytes) are read and answered. Throughout, `/health/live` is polled every
 * 50 ms and every poll is answered within LIVE_WITHIN_MS of its due time. A request refused before its body
 * is read is answered while the client is still sending that body.
 */
import { MAX_BODY_VALUES } from '@app/common';
import { request } from 'node:http';
import { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { DEVICE_API, REGISTRY, startDeviceApp } from '../support/device-app';
import { LIVE_WITHIN_MS, POLL_TEST_RETRIES, pollLiveDuring } from '../support/live-poller';
import { CONFIG, Envelope, startApp, TestApp } from '../support/test-app';

jest.retryTimes(POLL_TEST_RETRIES, { logErrorsBeforeRetry: true });

const MB = 1024 * 1024;

/** `[[],[],...]` of `count` empty arrays. */
const emptyArrays = (count: number): Buffer => Buffer.from(`[${'[],'.repeat(count - 1)}[]]`);

/** 16 MB of `[[],[],...]`, gzip-compressed: what the attack sent. */
const BOMB = gzipSync(emptyArrays(Math.floor((16 * MB) / 3)), { level: 9 });

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Sends a body as given (compressed: Content-Encoding gzip); resolves to the envelope and the HTTP status. */
function send(base: string, path: string, body: Buffer, headers: Record<string, string> = {}): Promise<Envelope> {
  return new Promise((resolve, reject) => {
    const req = request(
      `${base}${path}`,
      {
        method: 'POST',
        agent: false,
        headers: { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip', 'Content-Length': body.length, ...headers },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ ...JSON.parse(Buffer.concat(chunks).toString('utf8')), httpStatus: res.statusCode }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * Announces a 10 MB body, sends its first KiB and no more; resolves to the answer, which must come while
 * the rest of the body is still outstanding (the request is dropped once answered).
 */
function answerBeforeBody(base: string, path: string, headers: Record<string, string> = {}): Promise<Envelope> {
  return new Promise((resolve, reject) => {
    const req = request(`${base}${path}`, {
      method: 'POST',
      agent: false,
      headers: { 'Content-Type': 'application/json', 'Content-Length': 10 * MB, ...headers },
    });
    const timer = setTimeout(() => {
      req.destroy();
      reject(new Error(`${path}: no answer while the body was outstanding`));
    }, 5000);
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        clearTimeout(timer);
        req.destroy();
        resolve({ ...JSON.parse(Buffer.concat(chunks).toString('utf8')), httpStatus: res.statusCode });
      });
    });
    req.on('error', (error) => (req.destroyed ? undefined : reject(error)));
    req.write(Buffer.alloc(1024, '['));
  });
}

async function listening(t: TestApp): Promise<string> {
  await t.app.listen(0, '127.0.0.1');
  return `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
}

/** A refusal the service answers before reading the body: where, with which headers, and what it answers. */
interface Refusal {
  name: string;
  path: string;
  headers?: Record<string, string>;
  http: number;
}

const SERVICES: { name: string; prefix: string; start: () => Promise<TestApp>; refusals: Refusal[] }[] = [
  {
    name: 'main-service',
    prefix: '/main-service',
    start: () => startApp(),
    refusals: [
      { name: 'unknown route', path: '/main-service/no-such-route', http: 404 },
      { name: 'import without a token', path: `${CONFIG}/data-dictionary/importList`, http: 401 },
      {
        name: 'save with an invalid token',
        path: `${CONFIG}/data-dictionary/save`,
        headers: { Authorization: 'Bearer not.a.token' },
        http: 401,
      },
    ],
  },
  {
    name: 'device-service',
    prefix: '/device-service',
    start: () => startDeviceApp(),
    refusals: [
      { name: 'unknown route', path: '/device-service/no-such-route', http: 404 },
      { name: 'registry save without a token', path: `${REGISTRY}/data-acquisition-device/save`, http: 401 },
      {
        name: 'registry save with an invalid token',
        path: `${REGISTRY}/data-acquisition-device/save`,
        headers: { Authorization: 'Bearer not.a.token' },
        http: 401,
      },
      {
        name: 'device call without a token',
        path: `${DEVICE_API}/pushInfoByDataAcquisitionDeviceNo?dataAcquisitionDeviceNo=DAD-1`,
        http: 401,
      },
      {
        name: 'device call with an invalid token',
        path: `${DEVICE_API}/pushInfoByDataAcquisitionDeviceNo?dataAcquisitionDeviceNo=DAD-1&token=not.a.token`,
        http: 401,
      },
    ],
  },
];

describe.each(SERVICES)('$name', ({ prefix, start, refusals }) => {
  let t: TestApp;
  let base: string;
  beforeAll(async () => {
    t = await start();
    base = await listening(t);
  });
  afterAll(() => t?.close());

  it('the 16 KB gzip bomb, sent 24 times on unknown routes and without valid credentials: each answered at once, health/live free throughout', async () => {
    expect(BOMB.length).toBeLessThan(64 * 1024);
    const attacks = async () => {
      const answers: Envelope[] = [];
      for (let round = 0; round < 24 / refusals.length; round++)
        answers.push(...(await Promise.all(refusals.map((r) => send(base, r.path, BOMB, r.headers)))));
      return answers;
    };
    // the attacks end within milliseconds; the polls go on a little so there are some to judge
    const { result, latencies } = await pollLiveDuring(base, Promise.all([attacks(), sleep(500)]), undefined, prefix);
    expect(latencies.length).toBeGreaterThanOrEqual(5);
    expect(Math.max(...latencies)).toBeLessThan(LIVE_WITHIN_MS);
    const [answers] = result;
    expect(answers.map((a) => [a.httpStatus, a.status])).toEqual(answers.map((_, i) => Array(2).fill(refusals[i % refusals.length].http)));
  }, 60_000);

  it.each(refusals)('$name is answered while the body is still being sent', async ({ path, headers, http }) => {
    expect(await answerBeforeBody(base, path, headers)).toMatchObject({
      httpStatus: http,
      status: http,
      data: null,
      path: path.split('?')[0],
    });
  });
});

describe('an import route with a valid token', () => {
  let t: TestApp;
  let base: string;
  beforeAll(async () => {
    t = await startApp();
    base = await listening(t);
  });
  afterAll(() => t?.close());

  const IMPORT = `${CONFIG}/data-dictionary/importList`;
  const importing = (body: Buffer) => pollLiveDuring(base, send(base, IMPORT, gzipSync(body), { Authorization: t.auth() }));

  it(`the 16 MB bomb: refused at ${MAX_BODY_VALUES} values before it is parsed (400), health/live free throughout`, async () => {
    const { result, latencies } = await pollLiveDuring(base, send(base, IMPORT, BOMB, { Authorization: t.auth() }));
    expect(Math.max(0, ...latencies)).toBeLessThan(LIVE_WITHIN_MS);
    expect(result).toMatchObject({ httpStatus: 200, status: 400, path: IMPORT, data: null });
    expect(result.error).toBe(`Request body holds more than ${MAX_BODY_VALUES} JSON values`);
  }, 60_000);

  it('the most empty arrays the value bound admits: parsed, walked and refused as rows (1003), health/live free throughout', async () => {
    const { result, latencies } = await importing(emptyArrays(Math.floor((MAX_BODY_VALUES - 1) / 2)));
    expect(Math.max(0, ...latencies)).toBeLessThan(LIVE_WITHIN_MS);
    expect(result).toMatchObject({ httpStatus: 200, status: 1003, path: IMPORT, data: null });
  }, 60_000);

  it('a body of just under 16 MB: read and validated (400), health/live free throughout', async () => {
    const row = { dataDictionaryTypeCode: 'bomb', dataDictionaryCode: 'c', name: 'n', remark: 'x'.repeat(16 * MB - 200) };
    const { result, latencies } = await importing(Buffer.from(JSON.stringify([row])));
    expect(Math.max(0, ...latencies)).toBeLessThan(LIVE_WITHIN_MS);
    expect(result).toMatchObject({ httpStatus: 200, status: 400, path: IMPORT, data: null });
    expect(result.error).toContain('remark');
  }, 60_000);

  it('the same bomb on a route of the default limit: 413 once 1 MB is inflated', async () => {
    const res = await send(base, `${CONFIG}/data-dictionary/save`, BOMB, { Authorization: t.auth() });
    expect(res).toMatchObject({ httpStatus: 413, status: 413, error: 'Request body too large', data: null });
  });
});
