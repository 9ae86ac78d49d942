import { PassThrough } from 'node:stream';
import { once } from 'node:events';
import { stream as excelStream } from 'exceljs';
import { ExportColumn } from './export-columns';
import { ExportFormat } from './export-format';
import { drained, ExportOutput } from './export-output';

type Row = Record<string, unknown>;

/** One export's file: its start, its rows batch by batch, its end, each written with backpressure. */
export interface RowFile {
  start(): Promise<void>;
  rows(rows: Row[]): Promise<void>;
  end(): Promise<void>;
}

/** A text cell starting with one of these is a formula to a spreadsheet (formula injection): written with a leading `'`. */
const FORMULA_START = /^[=+\-@\t\r]/;

export const isFormulaLike = (text: string): boolean => FORMULA_START.test(text);

/** A value as text: objects and lists (e-mail addresses) as their JSON. */
const textOf = (value: unknown): string => (typeof value === 'object' ? JSON.stringify(value) : String(value));

/** One CSV field (RFC 4180): null empty; text defused, then quoted when it holds a quote, comma or line break. */
export function csvField(value: unknown): string {
  if (value === null || value === undefined) return '';
  const text = typeof value === 'string' && isFormulaLike(value) ? `'${value}` : textOf(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** UTF-8 with a byte order mark (so spreadsheets read it as UTF-8), CRLF line ends, a header line of the field names. */
class CsvFile implements RowFile {
  constructor(
    private readonly output: ExportOutput,
    private readonly columns: ExportColumn[],
  ) {}

  start(): Promise<void> {
    return this.output.write(`\uFEFF${this.columns.map((c) => csvField(c.field)).join(',')}\r\n`);
  }

  rows(rows: Row[]): Promise<void> {
    let text = '';
    for (const row of rows) text += `${this.columns.map((c) => csvField(row[c.field])).join(',')}\r\n`;
    return this.output.write(text);
  }

  async end(): Promise<void> {}
}

/** One JSON object per line, its keys the columns in order. */
class NdjsonFile implements RowFile {
  constructor(
    private readonly output: ExportOutput,
    private readonly columns: ExportColumn[],
  ) {}

  async start(): Promise<void> {}

  rows(rows: Row[]): Promise<void> {
    let text = '';
    for (const row of rows) {
      const record: Row = {};
      for (const { field } of this.columns) record[field] = row[field] ?? null;
      text += `${JSON.stringify(record)}\n`;
    }
    return this.output.write(text);
  }

  async end(): Promise<void> {}
}

/** The cell format of the date beside a time. */
const DATE_FORMAT = 'yyyy-mm-dd hh:mm:ss.000';

/**
 * One worksheet written by exceljs's streaming writer (each row committed as it comes, no shared strings kept), its
 * zip flowing through a counter into the response. Text is always a string cell and never a formula, numbers are
 * numbers, and each time is followed by its date (UTC) in a date-formatted column, unless the resource gives the
 * sheet's columns itself (its import's format): then exactly those.
 */
class XlsxFile implements RowFile {
  private readonly zipped = new PassThrough();
  private readonly workbook: InstanceType<typeof excelStream.xlsx.WorkbookWriter>;
  private readonly sheet: ReturnType<XlsxFile['workbook']['addWorksheet']>;
  private readonly cells: { field: string; date: boolean }[];

  constructor(
    private readonly output: ExportOutput,
    columns: ExportColumn[],
    sheetColumns: string[] | undefined,
    sheetName: string,
  ) {
    this.cells = sheetColumns
      ? sheetColumns.map((field) => ({ field, date: false }))
      : columns.flatMap((c) =>
          c.time
            ? [
                { field: c.field, date: false },
                { field: c.field, date: true },
              ]
            : [{ field: c.field, date: false }],
        );
    this.zipped.on('data', (chunk: Buffer) => void this.pass(chunk));
    // the client left: nothing more of the zip goes anywhere
    output.signal.addEventListener('abort', () => this.zipped.destroy(), { once: true });
    this.workbook = new excelStream.xlsx.WorkbookWriter({ stream: this.zipped, useStyles: true, useSharedStrings: false });
    this.sheet = this.workbook.addWorksheet(sheetName.slice(0, 31));
    this.sheet.columns = this.cells.map(({ field, date }) => ({
      header: date ? `${field} (UTC)` : field,
      key: `${field}${date ? ' (UTC)' : ''}`,
      width: date ? 24 : 16,
      ...(date && { style: { numFmt: DATE_FORMAT } }),
    }));
  }

  /** The zip's bytes on to the response; the zip waits while the response does (the counter is paused). */
  private pass(chunk: Buffer): void {
    this.output.bytes += chunk.length;
    if (!this.output.out.write(chunk)) {
      this.zipped.pause();
      this.output.out.once('drain', () => this.zipped.resume());
    }
  }

  async start(): Promise<void> {}

  async rows(rows: Row[]): Promise<void> {
    for (const row of rows) {
      const values = this.cells.map(({ field, date }) => cellValue(row[field], date));
      this.sheet.addRow(values).commit();
    }
    // the rows wait in the writer's buffers until the response took what came before
    await drained(this.zipped, this.output.signal);
    await drained(this.output.out, this.output.signal);
  }

  async end(): Promise<void> {
    this.sheet.commit();
    const ended = once(this.zipped, 'end', { signal: this.output.signal });
    await this.workbook.commit();
    await ended;
    await drained(this.output.out, this.output.signal);
  }
}

function cellValue(value: unknown, date: boolean): unknown {
  if (value === null || value === undefined) return null;
  if (date) return new Date(value as number);
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'string') return value;
  return textOf(value);
}

export function rowFileOf(
  format: ExportFormat,
  output: ExportOutput,
  columns: ExportColumn[],
  { sheetColumns, sheetName }: { sheetColumns?: string[]; sheetName: string },
): RowFile {
  switch (format.name) {
    case 'csv':
      return new CsvFile(output, columns);
    case 'ndjson':
      return new NdjsonFile(output, columns);
    case 'xlsx':
      return new XlsxFile(output, columns, sheetColumns, sheetName);
  }
}
