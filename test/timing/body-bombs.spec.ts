/**
 * The bodies of test/e2e/http-edges/body-bombs.ts do not stall the process: while they are sent and answered,
 * `/health/live` is polled every 50 ms and every poll is answered within LIVE_WITHIN_MS of its due time.
 */
import { MAX_BODY_VALUES } from '@app/common';
import { gzipSync } from 'node:zlib';
import { BOMB, emptyArrays, MB, send, SERVICES } from '../support/body-bombs';
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
});
