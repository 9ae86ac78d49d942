/**
 * The translations exported: every row over several keyset batches (rows of one import share their createdTime, so
 * the identifier breaks every tie), the page's order and filters, text that a spreadsheet would take for a formula,
 * and the XLSX export imported back, leaving every value as it was.
 */
import { ValueType, Workbook } from 'exceljs';
import { EXPORT_BATCH_ROWS } from '../../../libs/common/src/crud/export/record-export';
import { csvOf, exportFile, ndjsonOf, XLSX_TYPE, xlsxOf } from '../../support/export-files';
import type { Json } from '../../support/json';
import { CONFIG, Envelope, startApp, TestApp } from '../../support/test-app';

const P = `${CONFIG}/translation`;
/** Values a spreadsheet would run as formulas, and texts CSV must quote. */
const TRICKY = ['=SUM(A1:A2)', '+1', '-2', '@me', '\tTab', '\rCR', 'a "quoted", text\nover lines', 'Grüße 😀', ' spaced '];

describe('translation export', () => {
  let t: TestApp;
  const rows = EXPORT_BATCH_ROWS * 2 + 7;
  beforeAll(async () => {
    t = await startApp({ DISPATCH_ENABLED: 'false' });
    const workbook = new Workbook();
    const sheet = workbook.addWorksheet('translations');
    sheet.addRow(['language', 'namespace', 'key', 'value']);
    for (let i = 0; i < rows; i++)
      sheet.addRow(['en', i % 2 ? 'odd' : 'even', `k${String(i).padStart(5, '0')}`, TRICKY[i % TRICKY.length]]);
    const file = Buffer.from(await workbook.xlsx.writeBuffer());
    expect(await upload(file)).toMatchObject({ status: 200, data: true, extraData: { inserted: rows } });
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });

  const upload = async (file: Buffer): Promise<Envelope> => {
    const res = await t.http().post(`${P}/importList`).set('Authorization', t.auth()).attach('file', file, 'translations.xlsx');
    return { ...(res.body as Envelope), httpStatus: res.status };
  };
  /** Every live record matching `body` in the page's order, a page of 1000 at a time. */
  const paged = async (body: Json = {}): Promise<Json[]> => {
    const all: Json[] = [];
    for (let current = 1; ; current++) {
      const page = await t.post(`${P}/page`, { ...body, current, pageSize: 1000 });
      expect(page.status).toBe(200);
      all.push(...(page.data as Json[]));
      if ((page.data as Json[]).length < 1000) return all;
    }
  };

  it('NDJSON: every record as page shows it, in its order, over several keyset batches', async () => {
    const answer = await exportFile(t, P, {}, 'application/x-ndjson');
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toMatch(/^application\/x-ndjson/);
    expect(answer.headers['x-accel-buffering']).toBe('no');
    expect(answer.headers['content-disposition']).toMatch(/^attachment; filename="translation-\d{8}-\d{6}\.ndjson"$/);
    const records = ndjsonOf(answer);
    expect(records.length).toBe(rows);
    expect(records).toEqual(await paged());
  });

  it('CSV: a sort and a filter as page has them; formula-like text with a leading quote, quoting per RFC 4180', async () => {
    const body = { namespace: 'odd', sqlQuerySorter: { field: 'key', order: 'descend' } };
    const answer = await exportFile(t, P, body);
    expect(answer.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(answer.headers['content-disposition']).toMatch(/filename="translation-\d{8}-\d{6}\.csv"$/);
    const { header, rows: lines } = csvOf(answer);
    const expected = await paged(body);
    expect(header).toEqual(Object.keys(expected[0]));
    expect(lines.map((line) => line[header.indexOf('translationId')])).toEqual(expected.map((r) => r.translationId));
    // each value as stored, with a leading quote where a spreadsheet would see a formula
    const defused = (value: string) => (/^[=+\-@\t\r]/.test(value) ? `'${value}` : value);
    expect(lines.map((line) => line[header.indexOf('value')])).toEqual(expected.map((r) => defused(r.value as string)));
    expect(lines.map((line) => line[header.indexOf('value')])).toEqual(
      expect.arrayContaining(["'=SUM(A1:A2)", "'+1", "'-2", "'@me", "'\tTab"]),
    );
    // numbers and booleans as they are: no quote before a time or a revision
    const first = lines[0];
    expect(first[header.indexOf('createdTime')]).toBe(String(expected[0].createdTime));
    expect(first[header.indexOf('draft')]).toBe('false');
    expect(first[header.indexOf('deleteTime')]).toBe('');
  });

  it("XLSX is the import's workbook: text cells as they are, never formulas; importing it back leaves every value as it was", async () => {
    const before = await paged();
    const answer = await exportFile(t, P, {}, XLSX_TYPE);
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toBe(XLSX_TYPE);
    const { header, rows: cells, sheet } = await xlsxOf(answer);
    expect(header).toEqual(['language', 'namespace', 'key', 'value']);
    expect(cells.length).toBe(rows);
    expect(cells[0]).toEqual([before[0].language, before[0].namespace, before[0].key, before[0].value]);
    // formula-like text is a string cell, never a formula (nothing is evaluated on opening), its value unchanged
    const valueCells = cells.map((_, i) => sheet.getRow(i + 2).getCell(header.indexOf('value') + 1));
    expect(valueCells.map((cell) => cell.value)).toEqual(before.map((record) => record.value));
    expect(valueCells.map((cell) => cell.value)).toEqual(expect.arrayContaining(['=SUM(A1:A2)', '+1', '-2', '@me', '\tTab']));
    expect(new Set(valueCells.map((cell) => cell.type))).toEqual(new Set([ValueType.String]));
    expect(valueCells.filter((cell) => cell.formula !== undefined)).toEqual([]);
    const imported = await upload(answer.body);
    expect(imported).toMatchObject({ status: 200, data: true, extraData: { count: rows, inserted: 0 } });
    const after = await paged();
    const valuesOf = (records: Json[]) => records.map((r) => [r.translationId, r.language, r.namespace, r.key, r.value, r.draft]);
    expect(valuesOf(after)).toEqual(valuesOf(before));
  }, 60_000);
});
