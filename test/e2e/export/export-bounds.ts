/**
 * The bounds of export: EXPORT_MAX_ROWS refuses before any byte (naming the count and the bound); EXPORT_CONCURRENCY
 * refuses the next export with HTTP 429 and Retry-After while one streams, which holds no place under the in-flight
 * limit (ADMISSION_MAX_IN_FLIGHT=1 here: the refusal is admitted beside it); a client that leaves mid-file stops
 * the export at once, and its slot, read view and connection are free for the next request.
 */
import { request as httpRequest, ClientRequest, IncomingMessage } from 'node:http';
import { Workbook } from 'exceljs';
import { EXPORT_BATCH_ROWS, EXPORT_RETRY_AFTER_SECONDS } from '../../../libs/common/src/crud/export/record-export';
import { csvOf, exportFile } from '../../support/export-files';
import { LogCapture } from '../../support/observability';
import { CONFIG, Envelope, listenOnLoopback, startApp, TestApp } from '../../support/test-app';

const P = `${CONFIG}/translation`;

/** Long enough for the full exports below on a loaded machine; the stalled one is cut after it. */
const MAX_SECONDS = 15;

describe('export bounds', () => {
  let t: TestApp;
  let base: string;
  const lines = new LogCapture();
  /** Large enough that a client that reads nothing holds the export: the socket's buffers fill long before its end. */
  const rows = EXPORT_BATCH_ROWS * 3;
  beforeAll(async () => {
    t = await startApp(
      {
        DISPATCH_ENABLED: 'false',
        EXPORT_MAX_ROWS: String(rows + 1),
        EXPORT_CONCURRENCY: '1',
        EXPORT_MAX_SECONDS: String(MAX_SECONDS),
        ADMISSION_MAX_IN_FLIGHT: '1',
        LOG_LEVEL: 'info',
      },
      { logTo: lines },
    );
    base = await listenOnLoopback(t);
    // two workbooks (an upload inflates to at most 32 MiB a part): about 54 MB of file, beyond loopback's socket buffers
    for (const half of [0, 1]) {
      const workbook = new Workbook();
      const sheet = workbook.addWorksheet('translations');
      sheet.addRow(['language', 'namespace', 'key', 'value']);
      for (let i = half * (rows / 2); i < (half + 1) * (rows / 2); i++) sheet.addRow(['en', 'bulk', `k${i}`, `${i} ${'x'.repeat(9000)}`]);
      const res = await t
        .http()
        .post(`${P}/importList`)
        .set('Authorization', t.auth())
        .attach('file', Buffer.from(await workbook.xlsx.writeBuffer()), 'translations.xlsx');
      expect(res.body).toMatchObject({ status: 200, extraData: { inserted: rows / 2 } });
    }
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });

  /** An export whose client reads nothing once the answer's head came (the file waits in the socket's buffers). */
  const stalledExport = (): Promise<{ req: ClientRequest; res: IncomingMessage }> =>
    new Promise((resolve, reject) => {
      const req = httpRequest(`${base}${P}/export`, {
        method: 'POST',
        headers: { authorization: t.auth(), 'content-type': 'application/json', accept: 'text/csv' },
      });
      req.on('response', (res) => {
        res.pause();
        resolve({ req, res });
      });
      req.on('error', reject);
      req.end(JSON.stringify({ namespace: 'bulk' }));
    });

  it('more rows than EXPORT_MAX_ROWS: 400 in the envelope naming both, before any byte of a file', async () => {
    for (const key of ['one', 'too-many'])
      expect(await t.post(`${P}/save`, { language: 'en', namespace: 'extra', key, value: 'v' })).toMatchObject({ status: 200 });
    const refused = await exportFile(t, P, {});
    expect(refused.status).toBe(200);
    expect(refused.headers['content-disposition']).toBeUndefined();
    expect(refused.envelope).toMatchObject({ status: 400, data: null, path: `${P}/export` });
    expect(refused.envelope!.error).toContain(`${rows + 2} rows`);
    expect(refused.envelope!.error).toContain(`(${rows + 1})`);
    // within the bound with a filter: the file
    const filtered = await exportFile(t, P, { namespace: 'extra' });
    expect(filtered.status).toBe(200);
    expect(csvOf(filtered).rows.map((r) => r[csvOf(filtered).header.indexOf('key')])).toEqual(['one', 'too-many']);
    // a sort by a field that is not sortable is refused as page refuses it
    expect((await exportFile(t, P, { sqlQuerySorter: { field: 'value' } })).envelope).toMatchObject({ status: 400 });
  });

  it('while one export streams: the next is refused with 429 and Retry-After (admitted beside it); its client leaving frees all', async () => {
    const stalled = await stalledExport();
    expect(stalled.res.headers['content-disposition']).toMatch(/^attachment/);
    const busy = await exportFile(t, P, { namespace: 'bulk' });
    if (busy.status !== 429) stalled.req.destroy();
    expect(busy.status).toBe(429);
    expect(busy.headers['retry-after']).toBe(String(EXPORT_RETRY_AFTER_SECONDS));
    expect(busy.envelope).toMatchObject({ status: 429, data: null });
    expect(busy.envelope!.error).toContain('At most 1 exports');

    const closed = new Promise((resolve) => stalled.req.on('close', resolve));
    stalled.req.destroy();
    await closed;
    // the next export is served in full: the slot, the read view (SQLite: the one connection) and the connection are free
    const next = await waitForExport();
    expect(next.status).toBe(200);
    expect(csvOf(next).rows.length).toBe(rows);
    expect((await t.post(`${P}/count`, { namespace: 'bulk' })) as Envelope).toMatchObject({ status: 200, data: rows });
    const abandoned = lines.lines.find((line) => line.msg === 'export abandoned: the client left');
    expect(abandoned).toMatchObject({ export: 'system-api/configuration/translation', format: 'csv', outcome: 'abandoned' });
    expect(abandoned!.rows as number).toBeLessThan(rows);
    expect(lines.lines.findLast((line) => line.msg === 'export completed')).toMatchObject({ rows, bytes: next.body.length });
  }, 60_000);

  it('an export whose client stops reading is cut after EXPORT_MAX_SECONDS: the file ends short, the slot is free again', async () => {
    // measured from before the request: the server's own clock for the export starts later
    const started = Date.now();
    const stalled = await stalledExport();
    // the export is cut past its bound: then the client, reading again, finds the file short
    while (!lines.lines.some((l) => l.outcome === 'cut') && Date.now() - started < 30_000) await new Promise((r) => setTimeout(r, 200));
    expect(Date.now() - started).toBeGreaterThanOrEqual(MAX_SECONDS * 1000 - 100);
    const complete = await new Promise<boolean>((resolve) => {
      stalled.res.on('close', () => resolve(stalled.res.complete));
      stalled.res.on('error', () => resolve(false));
      stalled.res.resume();
    });
    expect(complete).toBe(false);
    const line = lines.lines.findLast((l) => l.outcome === 'cut');
    expect(line).toMatchObject({ export: 'system-api/configuration/translation', format: 'csv' });
    expect(line!.msg).toContain('EXPORT_MAX_SECONDS');
    expect(line!.rows as number).toBeLessThan(rows);
    expect((await waitForExport()).status).toBe(200);
  }, 60_000);

  /** The slot is given back as the export stops, a moment after the client left: the next export gets it within a second. */
  async function waitForExport() {
    for (let attempt = 0; ; attempt++) {
      const res = await fetch(`${base}${P}/export`, {
        method: 'POST',
        headers: { authorization: t.auth(), 'content-type': 'application/json' },
        body: JSON.stringify({ namespace: 'bulk' }),
      });
      const answer = { status: res.status, headers: {}, body: Buffer.from(await res.arrayBuffer()) };
      if (answer.status !== 429 || attempt === 20) return answer;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
});
