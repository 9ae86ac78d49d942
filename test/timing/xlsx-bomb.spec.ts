/**
 * The hostile workbooks of test/e2e/imports/xlsx-bounds.ts do not stall the process: while each is uploaded
 * and refused, `/health/live` is polled on a fixed 50 ms schedule, each poll counted from when it was due,
 * within LIVE_WITHIN_MS; a bomb is refused within 5 s, long before it would be unpacked.
 */
import { MAX_BATCH_ROWS } from '@app/common';
import { LIVE_WITHIN_MS, POLL_TEST_RETRIES, pollLiveDuring } from '../support/live-poller';
import { CONFIG, Envelope, listenOnLoopback, startApp, TestApp } from '../support/test-app';
import { sharedStringsBomb, sheetBomb, tooManyRows } from '../support/workbooks';

jest.retryTimes(POLL_TEST_RETRIES, { logErrorsBeforeRetry: true });

const P = `${CONFIG}/translation`;

let t: TestApp;
let base: string;

beforeAll(async () => {
  t = await startApp();
  base = await listenOnLoopback(t);
});
afterAll(async () => {
  await t?.close();
});

const upload = async (file: Buffer): Promise<Envelope & { elapsedMs: number }> => {
  const started = performance.now();
  const res = await t.http().post(`${P}/importList`).set('Authorization', t.auth()).attach('file', file, 'translations.xlsx');
  return { ...(res.body as Envelope), httpStatus: res.status, elapsedMs: performance.now() - started };
};

describe('translation/importList refuses decompression bombs without stalling', () => {
  it.each([
    { name: 'a sheet', make: sheetBomb },
    { name: 'shared strings', make: sharedStringsBomb },
  ])(
    '$name inflating to 150+ MiB: 400 within 5 s, health/live free throughout',
    async ({ make }) => {
      const bomb = await make(`bomb${Date.now().toString(36)}`);
      const { result, latencies } = await pollLiveDuring(base, upload(bomb));
      expect(Math.max(0, ...latencies)).toBeLessThan(LIVE_WITHIN_MS);
      expect(result.elapsedMs).toBeLessThan(5000);
      expect(result).toMatchObject({ httpStatus: 200, status: 400, data: null });
      expect(result.error).toContain('too large once unpacked');
    },
    120_000,
  );

  it(`a sheet of more than ${MAX_BATCH_ROWS} rows: refused, health/live free throughout`, async () => {
    const { result, latencies } = await pollLiveDuring(base, upload(await tooManyRows(`manyrows${Date.now().toString(36)}`)));
    expect(result.error).toBe(`file may contain at most ${MAX_BATCH_ROWS} rows`);
    expect(Math.max(0, ...latencies)).toBeLessThan(LIVE_WITHIN_MS);
  }, 120_000);
});
