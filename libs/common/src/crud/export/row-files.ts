import { ExportColumn } from './export-columns';
import { ExportFormat } from './export-format';
import { ExportOutput, RowFile, textOf } from './export-output';
import { XlsxFile } from './xlsx-file';

type Row = Record<string, unknown>;

/** A text cell starting with one of these is a formula to a spreadsheet (formula injection): written with a leading `'`. */
const FORMULA_START = /^[=+\-@\t\r]/;

export const isFormulaLike = (text: string): boolean => FORMULA_START.test(text);

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
