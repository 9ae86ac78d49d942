/**
 * The bodies of test/e2e/http-edges/body-bombs.ts do not stall the process: while they are sent and answered,
 * `/health/live` is polled every 50 ms and every poll is answered within LIVE_WITHIN_MS of its due time.
 * Beside the gzip bombs: objects of tens of thousands of keys (held the process for seconds to minutes in
 * class-transformer), and batches whose rows JSON.parse cannot build fast in one go (keys in varying order,
 * key names never repeated: about a second each).
 */
import { MAX_BODY_VALUES, MAX_RECORD_PROPERTIES, MAX_RECORD_VALUES } from '@app/common';
import { gzipSync } from 'node:zlib';
import {
  BOMB,
  deviceBodyCalls,
  emptyArrays,
  MB,
  objectWithKeys,
  rowsOfDistinctKeys,
  send,
  SERVICES,
  shuffledRows,
  UNCOMPRESSED,
} from '../support/body-bombs';
import { DeviceTestApp, startDeviceApp } from '../support/device-app';
import { LIVE_WITHIN_MS, POLL_TEST_RETRIES, pollLiveDuring } from '../support/live-poller';
import { CONFIG, Envelope, listenOnLoopback, startApp, TestApp } from '../support/test-app';

jest.retryTimes(POLL_TEST_RETRIES, { logErrorsBeforeRetry: true });

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.each(SERVICES)('$name', ({ prefix, start, refusals }) => {
  let t: TestApp;
  let base: string;
  beforeAll(async () => {
    t = await start();
    base = await listenOnLoopback(t);
  });
  afterAll(() => t?.close());

  it('the 16 KB gzip bomb, sent 24 times on unknown routes and without valid credentials: health/live free throughout', async () => {
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
    expect(answers.map((a) => a.httpStatus)).toEqual(answers.map((_, i) => refusals[i % refusals.length].http));
  }, 60_000);
});

describe('an import route with a valid token', () => {
  let t: TestApp;
  let base: string;
  beforeAll(async () => {
    t = await startApp();
    base = await listenOnLoopback(t);
  });
  afterAll(() => t?.close());

  const IMPORT = `${CONFIG}/data-dictionary/importList`;
  const importing = (body: Buffer) => pollLiveDuring(base, send(base, IMPORT, body, { Authorization: t.auth() }));

  it.each([
    { name: `the 16 MB bomb (refused at ${MAX_BODY_VALUES} values)`, body: () => BOMB, status: 400 },
    {
      name: 'the most empty arrays the value bound admits',
      body: () => gzipSync(emptyArrays(Math.floor((MAX_BODY_VALUES - 1) / 2))),
      status: 1003,
    },
    {
      name: 'a body of just under 16 MB',
      body: () =>
        gzipSync(
          JSON.stringify([{ dataDictionaryTypeCode: 'bomb', dataDictionaryCode: 'c', name: 'n', remark: 'x'.repeat(16 * MB - 200) }]),
        ),
      status: 400,
    },
  ])(
    '$name: health/live free throughout',
    async ({ body, status }) => {
      const { result, latencies } = await importing(body());
      expect(Math.max(0, ...latencies)).toBeLessThan(LIVE_WITHIN_MS);
      expect(result).toMatchObject({ httpStatus: 200, status, path: IMPORT, data: null });
    },
    120_000,
  );

  const plain = (path: string, text: string) =>
    pollLiveDuring(base, send(base, path, Buffer.from(text), { ...UNCOMPRESSED, Authorization: t.auth() }));

  const properties = `more than ${MAX_RECORD_PROPERTIES} properties`;
  const EMAIL = '/main-service/system-api/message/email';
  it.each([
    {
      name: 'value-set/page with one object of 64,000 keys',
      path: `${CONFIG}/value-set/page`,
      text: () => objectWithKeys(64_000),
      refused: properties,
    },
    { name: 'importList with one row of 480,000 keys', path: IMPORT, text: () => `[${objectWithKeys(480_000)}]`, refused: properties },
    {
      name: 'e-mail save with 1 MB of addresses (110,000)',
      path: `${EMAIL}/save`,
      text: () => JSON.stringify({ fromAddress: 'a@b.cd', subject: 's', content: 'c', toAddresses: Array(110_000).fill('a@b.cd') }),
      refused: `more than ${MAX_RECORD_VALUES} JSON values`,
    },
  ])(
    '$name: refused before it is parsed; health/live free throughout',
    async ({ path, text, refused }) => {
      const { result, latencies } = await plain(path, text());
      expect(Math.max(0, ...latencies)).toBeLessThan(LIVE_WITHIN_MS);
      expect(result).toMatchObject({ httpStatus: 200, status: 400, path, data: null });
      expect(result.error).toContain(refused);
    },
    120_000,
  );

  // each batch ends with a row that is no object: refused (1003) once the whole batch is parsed, before any row is validated
  const notObjectLast = (rows: string) => rows.replace(/\]$/, ',1]');
  it.each([
    { name: '45,000 rows with their keys in varying order', text: () => notObjectLast(shuffledRows(45_000, 'shuffled')) },
    { name: '40,000 rows of 10 keys, no key name used twice', text: () => notObjectLast(rowsOfDistinctKeys(40_000, 10)) },
  ])(
    '$name: parsed row by row (then 1003: the last row is no object); health/live free throughout',
    async ({ text }) => {
      const { result, latencies } = await plain(IMPORT, text());
      expect(Math.max(0, ...latencies)).toBeLessThan(LIVE_WITHIN_MS);
      expect(result).toMatchObject({
        httpStatus: 200,
        status: 1003,
        path: IMPORT,
        data: null,
        error: 'Request body must be a JSON array of objects',
      });
    },
    120_000,
  );
});

describe('device-service: device calls with one object of 64,000 keys', () => {
  let t: DeviceTestApp;
  let base: string;
  beforeAll(async () => {
    t = await startDeviceApp();
    base = await listenOnLoopback(t);
  });
  afterAll(() => t?.close());

  it(`pushInfo and updateInternalIp: refused at ${MAX_RECORD_PROPERTIES} properties; health/live free throughout`, async () => {
    const calls = await deviceBodyCalls(t, 'bomb');
    const body = Buffer.from(objectWithKeys(64_000));
    for (const { path, query, method } of calls) {
      const { result, latencies } = await pollLiveDuring(
        base,
        send(base, `${path}?${query}`, body, UNCOMPRESSED, method),
        undefined,
        '/device-service',
      );
      expect(Math.max(0, ...latencies)).toBeLessThan(LIVE_WITHIN_MS);
      expect(result).toMatchObject({ httpStatus: 200, status: 400, path, data: null });
    }
  }, 120_000);
});
