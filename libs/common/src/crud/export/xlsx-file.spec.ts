/**
 * The XLSX writer (xlsx-file.ts) on its own, writing into a stream that reads as a slow client would: it takes the
 * rows no faster than that reader takes the file (what it holds back stays bounded), and the file it makes opens in
 * exceljs with text as string cells, never formulas.
 */
import { randomBytes } from 'node:crypto';
import { PassThrough, Writable } from 'node:stream';
import { createInflateRaw } from 'node:zlib';
import { ValueType, Workbook } from 'exceljs';
import { ExportOutput } from './export-output';
import { XlsxFile } from './xlsx-file';

const BATCH = 500;
/** Batches the writer may be ahead of a slow reader. */
const AHEAD_MOST_BATCHES = 5;
const sheetFile = (out: Writable, signal = new AbortController().signal) =>
  new XlsxFile(new ExportOutput(out, signal), [], ['key', 'value'], 'fixture');

/**
 * A reader that takes one chunk every `everyMs` and counts the sheet rows that reached it: it inflates the zip's
 * first entry (the sheet, its local header skipped) and counts the rows' ends.
 */
function slowReader(everyMs: number) {
  const inflate = createInflateRaw();
  const state = { rows: 0, header: Buffer.alloc(0), inData: false };
  let tail = '';
  inflate.on('data', (xml: Buffer) => {
    const text = tail + xml.toString('latin1');
    state.rows += text.split('</row>').length - 1;
    tail = text.slice(-5);
  });
  const reader = new Writable({
    highWaterMark: 16 * 1024,
    write(chunk: Buffer, _encoding, done) {
      if (!state.inData) {
        state.header = Buffer.concat([state.header, chunk]);
        const start = state.header.length >= 30 ? 30 + state.header.readUInt16LE(26) + state.header.readUInt16LE(28) : Infinity;
        if (state.header.length < start) return setTimeout(done, everyMs);
        state.inData = true;
        chunk = state.header.subarray(start);
      }
      inflate.write(chunk);
      setTimeout(done, everyMs);
    },
  });
  return { reader, state };
}

describe('XLSX file', () => {
  it('a slow reader holds the rows back: the writer is never more than a few batches ahead of what it took', async () => {
    const { reader, state } = slowReader(10);
    const file = sheetFile(reader);
    await file.start();
    let taken = 0;
    let aheadMost = 0;
    const until = Date.now() + 2000;
    while (Date.now() < until) {
      // random text: it compresses to about half, so the reader's pace, not the deflate's, sets the writer's
      const batch = Array.from({ length: BATCH }, (_, i) => ({ key: `k${taken + i}`, value: randomBytes(300).toString('hex') }));
      taken += batch.length;
      await file.rows(batch);
      aheadMost = Math.max(aheadMost, taken - state.rows);
    }
    // the reader took thousands of rows meanwhile, and the writer was never more than the batch in hand and what
    // the streams between hold ahead of it (a 256 KiB piece, the deflate's and the zip's buffers, whose default
    // size Node 22 raised to 64 KiB): about three batches; without backpressure it runs hundreds ahead
    expect(state.rows).toBeGreaterThan(4 * BATCH);
    expect(aheadMost).toBeLessThanOrEqual(AHEAD_MOST_BATCHES * BATCH);
    reader.destroy();
  }, 30_000);

  it('text a spreadsheet would take for a formula is a string cell, its value unchanged; numbers and booleans as such', async () => {
    const out = new PassThrough();
    const chunks: Buffer[] = [];
    out.on('data', (chunk: Buffer) => chunks.push(chunk));
    const file = sheetFile(out);
    const texts = ['=SUM(A1:A2)', '+1', '-2', '@me', '\tTab', '\rCR', '=HYPERLINK("http://x")', 'a & <b> "c"', ' spaced '];
    await file.start();
    await file.rows([...texts.map((value, i) => ({ key: `k${i}`, value })), { key: 1.5, value: true }, { key: 'none', value: null }]);
    await file.end();
    const workbook = new Workbook();
    await workbook.xlsx.load(Buffer.concat(chunks) as never);
    const sheet = workbook.worksheets[0];
    expect(sheet.name).toBe('fixture');
    const cells = texts.map((_, i) => sheet.getRow(i + 2).getCell(2));
    expect(cells.map((cell) => [cell.type, cell.formula, cell.value])).toEqual(texts.map((text) => [ValueType.String, undefined, text]));
    expect([sheet.getCell('A11').value, sheet.getCell('B11').value, sheet.getCell('B12').type]).toEqual([1.5, true, ValueType.Null]);
    expect(sheet.getRow(1).values).toEqual([undefined, 'key', 'value']);
  });
});
