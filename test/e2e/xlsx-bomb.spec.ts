/**
 * translation/importList reads hostile workbooks within bounds: a few hundred KiB that inflate to
 * 150+ MiB (in the sheet, or in the shared strings) are refused with a 400 envelope long before they are
 * unpacked, while `/health/live` keeps answering (polled on a fixed 50 ms schedule, each poll counted
 * from when it was due, within LIVE_WITHIN_MS); a sheet of more than MAX_BATCH_ROWS rows is refused without
 * reading the rest; nothing is written.
 */
import { MAX_BATCH_ROWS } from '@app/common';
import { Workbook } from 'exceljs';
import { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { ZipFile } from 'yazl';
import { inflateEntries } from '../../apps/main-service/src/configuration/translation/bounded-zip';
import { CONFIG, Envelope, startApp, TestApp } from '../support/test-app';
import { LIVE_WITHIN_MS, POLL_TEST_RETRIES, pollLiveDuring } from '../support/live-poller';

jest.retryTimes(POLL_TEST_RETRIES, { logErrorsBeforeRetry: true });

const MIB = 1024 * 1024;
const P = `${CONFIG}/translation`;

let t: TestApp;
let base: string;

beforeAll(async () => {
  t = await startApp();
  await t.app.listen(0, '127.0.0.1');
  base = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
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

const cell = (ref: string, text: string) => `<c r="${ref}" t="inlineStr"><is><t>${text}</t></is></c>`;
const row = (n: number, cells: string[]) => `<row r="${n}">${cells.map((text, i) => cell(`${'ABCD'[i]}${n}`, text)).join('')}</row>`;
const SHEET_OPEN =
  '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>';
const SHEET_CLOSE = '</sheetData></worksheet>';

/**
 * A workbook written by exceljs whose parts are then replaced: `sheet` (the XML of the first worksheet)
 * and, when given, `sharedStrings`; each is given as pieces, streamed through Node's zlib (yazl), so that no
 * single huge string or buffer is built and the bombs take a moment to make, not the test's time.
 */
async function workbookWith(parts: { sheet: Buffer[]; sharedStrings?: Buffer[] }): Promise<Buffer> {
  const wb = new Workbook();
  wb.addWorksheet('translations').addRow(['language', 'namespace', 'key', 'value']);
  const written = await inflateEntries(Buffer.from(await wb.xlsx.writeBuffer()), () => true, {
    maxEntries: 100,
    maxEntryBytes: MIB,
    maxTotalBytes: 10 * MIB,
  });
  const replaced: Record<string, Buffer[] | undefined> = {
    'xl/worksheets/sheet1.xml': parts.sheet,
    'xl/sharedStrings.xml': parts.sharedStrings,
  };
  const zip = new ZipFile();
  for (const path of new Set([...written.keys(), ...Object.keys(replaced)])) {
    const pieces = replaced[path];
    if (pieces) zip.addReadStream(Readable.from(pieces), path, { compressionLevel: 9 });
    else zip.addBuffer(written.get(path)!, path);
  }
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Sheet XML of the header and `count` rows made by `make`, as pieces. */
function sheetOf(count: number, make: (n: number) => string, tail = SHEET_CLOSE): Buffer[] {
  const pieces = [Buffer.from(SHEET_OPEN + row(1, ['language', 'namespace', 'key', 'value']))];
  for (let from = 2; from < count + 2; from += 10_000) {
    const rows: string[] = [];
    for (let n = from; n < Math.min(from + 10_000, count + 2); n++) rows.push(make(n));
    pieces.push(Buffer.from(rows.join('')));
  }
  pieces.push(Buffer.from(tail));
  return pieces;
}

const size = (pieces: Buffer[]) => pieces.reduce((sum, p) => sum + p.length, 0);

describe('translation/importList refuses decompression bombs within bounds', () => {
  it('a sheet inflating to 150+ MiB: 400 envelope within 5 s, health/live free throughout, nothing written', async () => {
    const ns = `bombsheet${Date.now().toString(36)}`;
    // one row whose value cell holds 160 MiB of the same letter
    const filler = Buffer.alloc(16 * MIB, 'v');
    const sheet = [
      Buffer.from(
        SHEET_OPEN +
          row(1, ['language', 'namespace', 'key', 'value']) +
          `<row r="2">${cell('A2', 'en')}${cell('B2', ns)}${cell('C2', 'k')}<c r="D2" t="inlineStr"><is><t>`,
      ),
    ];
    for (let i = 0; i < 10; i++) sheet.push(filler);
    sheet.push(Buffer.from(`</t></is></c></row>${SHEET_CLOSE}`));
    expect(size(sheet)).toBeGreaterThan(150 * MIB);
    const bomb = await workbookWith({ sheet });
    expect(bomb.length).toBeLessThan(1 * MIB); // far under the upload bound: it is the inflation that must be bounded

    const { result, latencies } = await pollLiveDuring(base, upload(bomb));
    expect(Math.max(0, ...latencies)).toBeLessThan(LIVE_WITHIN_MS);
    expect(result.elapsedMs).toBeLessThan(5000);
    expect(result).toMatchObject({ httpStatus: 200, status: 400, path: `${P}/importList`, data: null });
    expect(result.error).toContain('too large once unpacked');
    expect(await entriesOf(ns)).toBe(0);
  }, 120_000);

  it('shared strings inflating to 150+ MiB: 400 envelope within 5 s, health/live free throughout, nothing written', async () => {
    const ns = `bombstrings${Date.now().toString(36)}`;
    const one = `<si><t>${'x'.repeat(1000)}</t></si>`;
    const strings = [
      Buffer.from('<?xml version="1.0" encoding="UTF-8"?><sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">'),
    ];
    const block = Buffer.from(one.repeat(10_000));
    for (let i = 0; i < 16; i++) strings.push(block);
    strings.push(Buffer.from('</sst>'));
    expect(size(strings)).toBeGreaterThan(150 * MIB);
    const bomb = await workbookWith({ sheet: sheetOf(1, (n) => row(n, ['en', ns, 'k', 'v'])), sharedStrings: strings });
    expect(bomb.length).toBeLessThan(1 * MIB);

    const { result, latencies } = await pollLiveDuring(base, upload(bomb));
    expect(Math.max(0, ...latencies)).toBeLessThan(LIVE_WITHIN_MS);
    expect(result.elapsedMs).toBeLessThan(5000);
    expect(result).toMatchObject({ httpStatus: 200, status: 400, data: null });
    expect(result.error).toContain('too large once unpacked');
    expect(await entriesOf(ns)).toBe(0);
  }, 120_000);

  it(`a sheet of more than ${MAX_BATCH_ROWS} rows is refused at row ${MAX_BATCH_ROWS + 2}, without reading the rest`, async () => {
    const ns = `manyrows${Date.now().toString(36)}`;
    // 10,000 rows more than the bound, then broken XML: reading to the end would answer "not a readable XLSX workbook"
    const sheet = sheetOf(
      MAX_BATCH_ROWS + 10_000,
      (n) => row(n, ['en', ns, `k${n}`, 'v']),
      `<row r="${MAX_BATCH_ROWS + 10_002}"><c r="A1" <<< broken`,
    );
    const file = await workbookWith({ sheet });

    const { result, latencies } = await pollLiveDuring(base, upload(file));
    expect(result).toMatchObject({ httpStatus: 200, status: 400, data: null });
    expect(result.error).toBe(`file may contain at most ${MAX_BATCH_ROWS} rows`);
    expect(Math.max(0, ...latencies)).toBeLessThan(LIVE_WITHIN_MS);
    expect(await entriesOf(ns)).toBe(0);
  }, 120_000);

  it(`a sheet of exactly ${MAX_BATCH_ROWS} rows is read whole (its bad last row is named by its sheet row)`, async () => {
    const ns = `maxrows${Date.now().toString(36)}`;
    const last = MAX_BATCH_ROWS + 1;
    const sheet = sheetOf(MAX_BATCH_ROWS, (n) => row(n, [n === last ? 'not a language!' : 'en', ns, `k${n}`, 'v']));
    const result = await upload(await workbookWith({ sheet }));
    expect(result).toMatchObject({ httpStatus: 200, status: 400, data: null });
    expect(result.error).toMatch(new RegExp(`^row ${last}: language must`));
    expect(await entriesOf(ns)).toBe(0);
  }, 120_000);
});

describe('translation/importList names bad rows by their sheet row only', () => {
  it('a row failing several rules is reported as "row N: ..." for each, never by its batch position', async () => {
    const ns = `rows${Date.now().toString(36)}`;
    const sheet = sheetOf(3, (n) => (n === 3 ? row(n, ['not a language!', ns, '', 'v']) : row(n, ['en', ns, `k${n}`, 'v'])));
    const result = await upload(await workbookWith({ sheet }));
    expect(result).toMatchObject({ httpStatus: 200, status: 400, data: null });
    expect(result.error).toMatch(/^row 3: /);
    expect(result.error).toContain('language');
    expect(result.error).toContain('key');
    expect(result.error).not.toMatch(/\[\d+\]/);
    expect(await entriesOf(ns)).toBe(0);
  });
});
