/** An export's answer as a test reads it (the file's bytes, or the envelope of a refusal), and the files parsed. */
import { Workbook } from 'exceljs';
import type { Response } from 'superagent';
import type { TestApp } from './test-app';
import type { Claims } from './tokens';
import type { Json } from './json';

export const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

export interface ExportAnswer {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
  /** The envelope, when the answer is one (a refusal). */
  envelope?: Json;
}

const collected = (res: Response, done: (error: Error | null, body: Buffer) => void) => {
  const chunks: Buffer[] = [];
  res.on('data', (chunk: Buffer) => chunks.push(chunk));
  res.on('end', () => done(null, Buffer.concat(chunks)));
};

/** POST <P>/export with `accept` (none: the default format). */
export async function exportFile(t: TestApp, P: string, body: unknown = {}, accept?: string, claims?: Claims): Promise<ExportAnswer> {
  let req = t.http().post(`${P}/export`).set('Authorization', t.auth(claims));
  if (accept) req = req.set('Accept', accept);
  const res = await req
    .send(body as object)
    .buffer(true)
    .parse(collected as never);
  const buffer = res.body as Buffer;
  const json = /json/.test(String(res.headers['content-type'])) && !/ndjson/.test(String(res.headers['content-type']));
  return {
    status: res.status,
    headers: res.headers as Record<string, string>,
    body: buffer,
    envelope: json ? (JSON.parse(buffer.toString('utf8')) as Json) : undefined,
  };
}

/** RFC 4180 records of a CSV text (quoted fields with doubled quotes, CRLF line ends). */
export function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let quoted = false;
  const endField = () => {
    record.push(field);
    field = '';
  };
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted && ch === '"' && text[i + 1] === '"') {
      field += '"';
      i++;
    } else if (quoted && ch === '"') quoted = false;
    else if (quoted) field += ch;
    else if (ch === '"') quoted = true;
    else if (ch === ',') endField();
    else if (ch === '\r' && text[i + 1] === '\n') {
      endField();
      records.push(record);
      record = [];
      i++;
    } else field += ch;
  }
  if (field !== '' || record.length) {
    endField();
    records.push(record);
  }
  return records;
}

/** The CSV file's header and rows, after checking its byte order mark. */
export function csvOf(answer: ExportAnswer): { header: string[]; rows: string[][] } {
  const text = answer.body.toString('utf8');
  expect(text.startsWith('\uFEFF')).toBe(true);
  const [header, ...rows] = parseCsv(text.slice(1));
  return { header, rows };
}

export function ndjsonOf(answer: ExportAnswer): Json[] {
  return answer.body
    .toString('utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Json);
}

/** The first worksheet's rows: cell values (texts, numbers, dates) as exceljs reads them, and the cells. */
export async function xlsxOf(answer: ExportAnswer): Promise<{ header: string[]; rows: unknown[][]; sheet: import('exceljs').Worksheet }> {
  const workbook = new Workbook();
  await workbook.xlsx.load(answer.body as never);
  const sheet = workbook.worksheets[0];
  const rows: unknown[][] = [];
  sheet.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
  const [header, ...data] = rows;
  return { header: header as string[], rows: data, sheet };
}
