/**
 * Workbooks for translation/importList, hostile ones included: built from XML pieces streamed through zlib,
 * so a bomb takes a moment to make. Shared by test/e2e/imports/xlsx-bounds.ts (the answers) and
 * test/timing/xlsx-bomb.spec.ts (the event loop stays free meanwhile).
 */
import { MAX_BATCH_ROWS } from '@app/common';
import { Workbook } from 'exceljs';
import { Readable } from 'node:stream';
import { ZipFile } from 'yazl';
import { inflateEntries } from '../../apps/main-service/src/configuration/translation/bounded-zip';

export const MIB = 1024 * 1024;

export const cell = (ref: string, text: string) => `<c r="${ref}" t="inlineStr"><is><t>${text}</t></is></c>`;
export const row = (n: number, cells: string[]) => `<row r="${n}">${cells.map((text, i) => cell(`${'ABCD'[i]}${n}`, text)).join('')}</row>`;
export const SHEET_OPEN =
  '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>';
export const SHEET_CLOSE = '</sheetData></worksheet>';

/**
 * A workbook written by exceljs whose parts are then replaced: `sheet` (the XML of the first worksheet)
 * and, when given, `sharedStrings`; each is given as pieces, streamed through Node's zlib (yazl), so that no
 * single huge string or buffer is built and the bombs take a moment to make, not the test's time.
 */
export async function workbookWith(parts: { sheet: Buffer[]; sharedStrings?: Buffer[] }): Promise<Buffer> {
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
export function sheetOf(count: number, make: (n: number) => string, tail = SHEET_CLOSE): Buffer[] {
  const pieces = [Buffer.from(SHEET_OPEN + row(1, ['language', 'namespace', 'key', 'value']))];
  for (let from = 2; from < count + 2; from += 10_000) {
    const rows: string[] = [];
    for (let n = from; n < Math.min(from + 10_000, count + 2); n++) rows.push(make(n));
    pieces.push(Buffer.from(rows.join('')));
  }
  pieces.push(Buffer.from(tail));
  return pieces;
}

export const size = (pieces: Buffer[]) => pieces.reduce((sum, p) => sum + p.length, 0);

/** A workbook whose sheet holds one row with a value cell of 160 MiB of the same letter; under 1 MiB packed. */
export async function sheetBomb(ns: string): Promise<Buffer> {
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
  return workbookWith({ sheet });
}

/** A workbook of one row whose shared strings inflate to 160 MiB; under 1 MiB packed. */
export async function sharedStringsBomb(ns: string): Promise<Buffer> {
  const one = `<si><t>${'x'.repeat(1000)}</t></si>`;
  const strings = [
    Buffer.from('<?xml version="1.0" encoding="UTF-8"?><sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">'),
  ];
  const block = Buffer.from(one.repeat(10_000));
  for (let i = 0; i < 16; i++) strings.push(block);
  strings.push(Buffer.from('</sst>'));
  expect(size(strings)).toBeGreaterThan(150 * MIB);
  return workbookWith({ sheet: sheetOf(1, (n) => row(n, ['en', ns, 'k', 'v'])), sharedStrings: strings });
}

/** 10,000 rows more than MAX_BATCH_ROWS, then broken XML: reading to the end would answer "not a readable XLSX workbook". */
export function tooManyRows(ns: string): Promise<Buffer> {
  const sheet = sheetOf(
    MAX_BATCH_ROWS + 10_000,
    (n) => row(n, ['en', ns, `k${n}`, 'v']),
    `<row r="${MAX_BATCH_ROWS + 10_002}"><c r="A1" <<< broken`,
  );
  return workbookWith({ sheet });
}
