/**
 * The bounds of export: EXPORT_MAX_ROWS refuses before any byte (naming the count and the bound); EXPORT_CONCURRENCY
 * refuses the next export with HTTP 429 and Retry-After while one streams, which holds no place under the in-flight
 * limit (ADMISSION_MAX_IN_FLIGHT=1 here: the refusal is admitted beside it); a client that leaves mid-file, in any
 * format, stops the export at once, and its slot, read view and connection are free for the next request.
 */
import { randomBytes } from 'node:crypto';
import { request as httpRequest, ClientRequest, IncomingMessage } from 'node:http';
import { Translation } from '../../../apps/main-service/src/configuration/translation/translation.entity';
import { ExportSlots } from '../../../libs/common/src/crud/export/export-slots';
import { EXPORT_BATCH_ROWS, EXPORT_RETRY_AFTER_SECONDS } from '../../../libs/common/src/crud/export/record-export';
import { usingMysql } from '../../support/database';
import { csvOf, exportFile, XLSX_TYPE } from '../../support/export-files';
import { LogCapture } from '../../support/observability';
import { CONFIG, Envelope, listenOnLoopback, startApp, TestApp } from '../../support/test-app';

const P = `${CONFIG}/translation`;

/** Long enough for the exports below on a loaded machine (their app); the cut test's app cuts after CUT_SECONDS. */
const MAX_SECONDS = 15;
const CUT_SECONDS = 2;
/** Large enough that a client that reads nothing holds the export: the socket's buffers fill long before its end. */
const rows = EXPORT_BATCH_ROWS * 3;

/**
 * An app with one export slot and the given EXPORT_MAX_SECONDS, whose tenant-a holds `rows` translations of random
 * text in namespace `bulk` (it compresses to about half, so the XLSX file too is tens of MB, beyond loopback's
 * socket buffers; written straight into the table: uploads of it would take minutes) and two in namespace `extra`.
 */
async function appWithBulk(maxSeconds: number, lines: LogCapture): Promise<{ t: TestApp; base: string }> {
  const t = await startApp(
    {
      DISPATCH_ENABLED: 'false',
      EXPORT_MAX_ROWS: String(rows + 1),
      EXPORT_CONCURRENCY: '1',
      EXPORT_MAX_SECONDS: String(maxSeconds),
      ADMISSION_MAX_IN_FLIGHT: '1',
      LOG_LEVEL: 'info',
    },
    { logTo: lines },
  );
  const base = await listenOnLoopback(t);
  const repository = t.dataSource.getRepository(Translation);
  const now = Date.now();
  for (let first = 0; first < rows; first += 250)
    await repository.insert(
      Array.from({ length: 250 }, (_, j) => ({
        tenantId: 'tenant-a',
        translationId: `bulk${String(first + j).padStart(5, '0')}`,
        revision: 1,
        createdUsername: 'seed',
        createdTime: now,
        lastModifiedUsername: 'seed',
        lastModifiedTime: now,
        language: 'en',
        namespace: 'bulk',
        key: `k${first + j}`,
        value: `${first + j} ${randomBytes(4500).toString('hex')}`,
        draft: false,
      })),
    );
  expect((await t.post(`${P}/count`, { namespace: 'bulk' })) as Envelope).toMatchObject({ status: 200, data: rows });
  for (const key of ['one', 'too-many'])
    expect(await t.post(`${P}/save`, { language: 'en', namespace: 'extra', key, value: 'v' })).toMatchObject({ status: 200 });
  return { t, base };
}

/** The two records of namespace `extra`: a small export, whose answer shows the slot free again. */
const SMALL = { namespace: 'extra' };

/** An export whose client reads nothing once the answer's head came (the file waits in the socket's buffers). */
const stalledExport = (base: string, t: TestApp, accept = 'text/csv'): Promise<{ req: ClientRequest; res: IncomingMessage }> =>
  new Promise((resolve, reject) => {
    const req = httpRequest(`${base}${P}/export`, {
      method: 'POST',
      headers: { authorization: t.auth(), 'content-type': 'application/json', accept },
    });
    req.on('response', (res) => {
      res.pause();
      resolve({ req, res });
    });
    req.on('error', reject);
    req.end(JSON.stringify({ namespace: 'bulk' }));
  });

/** The client goes away mid-file (its socket closed). */
async function leave(stalled: { req: ClientRequest }): Promise<void> {
  const closed = new Promise((resolve) => stalled.req.on('close', resolve));
  stalled.req.destroy();
  await closed;
}

/** The slot is given back as the export stops, a moment after the client left: the next export gets it within a second. */
async function waitForExport(base: string, t: TestApp, body: object = { namespace: 'bulk' }) {
  for (let attempt = 0; ; attempt++) {
    const res = await fetch(`${base}${P}/export`, {
      method: 'POST',
      headers: { authorization: t.auth(), 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const answer = { status: res.status, headers: {}, body: Buffer.from(await res.arrayBuffer()) };
    if (answer.status !== 429 || attempt === 20) return answer;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('export bounds', () => {
  let t: TestApp;
  let base: string;
  const lines = new LogCapture();
  beforeAll(async () => {
    ({ t, base } = await appWithBulk(MAX_SECONDS, lines));
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });

  it('more rows than EXPORT_MAX_ROWS: 400 in the envelope naming both, before any byte of a file', async () => {
    const refused = await exportFile(t, P, {});
    expect(refused.status).toBe(200);
    expect(refused.headers['content-disposition']).toBeUndefined();
    expect(refused.envelope).toMatchObject({ status: 400, data: null, path: `${P}/export` });
    expect(refused.envelope!.error).toContain(`${rows + 2} rows`);
    expect(refused.envelope!.error).toContain(`(${rows + 1})`);
    // within the bound with a filter: the file
    const filtered = await exportFile(t, P, SMALL);
    expect(filtered.status).toBe(200);
    expect(csvOf(filtered).rows.map((r) => r[csvOf(filtered).header.indexOf('key')])).toEqual(['one', 'too-many']);
    // a sort by a field that is not sortable is refused as page refuses it
    expect((await exportFile(t, P, { sqlQuerySorter: { field: 'value' } })).envelope).toMatchObject({ status: 400 });
  });

  it('while one export streams: the next is refused with 429 and Retry-After (admitted beside it)', async () => {
    const stalled = await stalledExport(base, t);
    expect(stalled.res.headers['content-disposition']).toMatch(/^attachment/);
    const busy = await exportFile(t, P, { namespace: 'bulk' });
    await leave(stalled);
    expect(busy.status).toBe(429);
    expect(busy.headers['retry-after']).toBe(String(EXPORT_RETRY_AFTER_SECONDS));
    expect(busy.envelope).toMatchObject({ status: 429, data: null });
    expect(busy.envelope!.error).toContain('At most 1 exports');
    expect((await waitForExport(base, t)).status).toBe(200);
  }, 60_000);

  it.each([
    ['csv', 'text/csv'],
    ['ndjson', 'application/x-ndjson'],
    ['xlsx', XLSX_TYPE],
  ])(
    'a client that leaves mid-file (%s) stops the export: its slot, read view and connection are free, nothing runs on',
    async (format, accept) => {
      const before = lines.lines.length;
      const stalled = await stalledExport(base, t, accept);
      expect(stalled.res.headers['content-type']).toContain(accept);
      // streaming, and held by the client: its slot taken and (MariaDB) its read view open
      expect(ExportSlots.of(t.dataSource).inUse).toBe(1);
      await expectReadViews(1);
      await leave(stalled);
      const abandoned = await until(
        async () => lines.lines.slice(before).find((line) => line.msg === 'export abandoned: the client left'),
        (line) => line !== undefined,
      );
      expect(abandoned).toMatchObject({ export: 'system-api/configuration/translation', format, outcome: 'abandoned' });
      expect(abandoned!.rows as number).toBeLessThan(rows);
      expect(ExportSlots.of(t.dataSource).inUse).toBe(0);
      await expectReadViews(0);
      // and nothing of it runs on (no later end of it: cut or failed), and the next export is served
      const next = await waitForExport(base, t, SMALL);
      expect(next.status).toBe(200);
      expect(csvOf(next).rows.length).toBe(2);
      expect((await t.post(`${P}/count`, { namespace: 'bulk' })) as Envelope).toMatchObject({ status: 200, data: rows });
      const ended = lines.lines.slice(before).filter((line) => ['abandoned', 'cut', 'failed'].includes(line.outcome as string));
      expect(ended.map((line) => line.outcome)).toEqual(['abandoned']);
      expect(lines.lines.findLast((line) => line.msg === 'export completed')).toMatchObject({ rows: 2, bytes: next.body.length });
    },
    60_000,
  );

  /** Transactions open on the test's database (MariaDB: a stalled export's read view is one). */
  async function openTransactions(): Promise<number> {
    const [{ n }] = (await t.dataSource.query(
      'SELECT COUNT(1) AS n FROM information_schema.INNODB_TRX trx JOIN information_schema.PROCESSLIST p ON p.ID = trx.trx_mysql_thread_id WHERE p.DB = DATABASE() AND p.ID <> CONNECTION_ID()',
    )) as { n: number | string }[];
    return Number(n);
  }

  /** MariaDB: `count` transactions come to be open on the test's database, within 10 s (SQLite has one connection). */
  async function expectReadViews(count: number): Promise<void> {
    if (usingMysql()) expect(await until(openTransactions, (n) => n === count)).toBe(count);
  }

  /** `read()` again until `done` holds of its value, for up to 10 s (INNODB_TRX is refreshed every 0.1 s). */
  async function until<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
    const started = Date.now();
    for (;;) {
      const value = await read();
      if (done(value) || Date.now() - started > 10_000) return value;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
});

describe('export bounds: EXPORT_MAX_SECONDS', () => {
  let t: TestApp;
  let base: string;
  const lines = new LogCapture();
  beforeAll(async () => {
    ({ t, base } = await appWithBulk(CUT_SECONDS, lines));
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });

  it('an export whose client stops reading is cut after EXPORT_MAX_SECONDS: the file ends short, the slot is free again', async () => {
    // measured from before the request: the server's own clock for the export starts later
    const started = Date.now();
    const stalled = await stalledExport(base, t);
    // the export is cut past its bound: then the client, reading again, finds the file short
    while (!lines.lines.some((l) => l.outcome === 'cut') && Date.now() - started < 20_000) await new Promise((r) => setTimeout(r, 200));
    expect(Date.now() - started).toBeGreaterThanOrEqual(CUT_SECONDS * 1000 - 100);
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
    expect((await waitForExport(base, t, SMALL)).status).toBe(200);
  }, 60_000);
});
