/**
 * Workbooks at and past translation/importList's bounds: a few hundred KiB that inflate to 150+ MiB (in the sheet,
 * or in the shared strings), and a sheet of more than MAX_BATCH_ROWS rows, are refused with a 400 envelope and write
 * nothing; a sheet of exactly MAX_BATCH_ROWS rows is read whole. None stalls the process: while each is uploaded and refused, `/health/live` is polled on a fixed
 * 50 ms schedule, each poll counted from when it was due, within LIVE_WITHIN_MS; a bomb is refused within 5 s,
 * long before it would be unpacked.
 */
import { MAX_BATCH_ROWS } from '@app/common';
import { LIVE_WITHIN_MS, POLL_TEST_RETRIES, pollLiveDuring } from '../support/live-poller';
import { CONFIG, Envelope, listenOnLoopback, startApp, TestApp } from '../support/test-app';
import { MIB, row, sharedStringsBomb, sheetBomb, sheetOf, tooManyRows, workbookWith } from '../support/workbooks';

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
const entriesOf = async (namespace: string): Promise<number> => (await t.post(`${P}/count`, { namespace })).data as number;

describe('translation/importList at and past its bounds, without stalling', () => {
  it.each([
    { name: 'a sheet', make: sheetBomb },
    { name: 'shared strings', make: sharedStringsBomb },
  ])(
    '$name inflating to 150+ MiB: 400 within 5 s, nothing written, health/live free throughout',
    async ({ make }) => {
      const ns = `bomb${Date.now().toString(36)}`;
      const bomb = await make(ns);
      expect(bomb.length).toBeLessThan(1 * MIB); // far under the upload bound: it is the inflation that must be bounded
      const { result, latencies } = await pollLiveDuring(base, upload(bomb));
      expect(Math.max(0, ...latencies)).toBeLessThan(LIVE_WITHIN_MS);
      expect(result.elapsedMs).toBeLessThan(5000);
      expect(result).toMatchObject({ httpStatus: 200, status: 400, data: null });
      expect(result.error).toContain('too large once unpacked');
      expect(await entriesOf(ns)).toBe(0);
    },
    120_000,
  );

  it(`a sheet of more than ${MAX_BATCH_ROWS} rows: refused at row ${MAX_BATCH_ROWS + 2} without reading the rest, nothing written, health/live free throughout`, async () => {
    const ns = `manyrows${Date.now().toString(36)}`;
    const { result, latencies } = await pollLiveDuring(base, upload(await tooManyRows(ns)));
    expect(result).toMatchObject({ httpStatus: 200, status: 400, data: null });
    expect(result.error).toBe(`file may contain at most ${MAX_BATCH_ROWS} rows`);
    expect(await entriesOf(ns)).toBe(0);
    expect(Math.max(0, ...latencies)).toBeLessThan(LIVE_WITHIN_MS);
  }, 120_000);

  it(`a sheet of exactly ${MAX_BATCH_ROWS} rows is read whole (its bad last row is named by its sheet row), health/live free throughout`, async () => {
    const ns = `maxrows${Date.now().toString(36)}`;
    const last = MAX_BATCH_ROWS + 1;
    const sheet = sheetOf(MAX_BATCH_ROWS, (n) => row(n, [n === last ? 'not a language!' : 'en', ns, `k${n}`, 'v']));
    const { result, latencies } = await pollLiveDuring(base, upload(await workbookWith({ sheet })));
    expect(result).toMatchObject({ httpStatus: 200, status: 400, data: null });
    expect(result.error).toMatch(new RegExp(`^row ${last}: language must`));
    expect(await entriesOf(ns)).toBe(0);
    expect(Math.max(0, ...latencies)).toBeLessThan(LIVE_WITHIN_MS);
  }, 120_000);
});
