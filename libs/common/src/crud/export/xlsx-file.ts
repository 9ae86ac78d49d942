import { once } from 'node:events';
import { PassThrough, Readable } from 'node:stream';
import { ZipFile } from 'yazl';
import { ExportColumn } from './export-columns';
import { drained, ExportOutput, RowFile, textOf } from './export-output';

type Row = Record<string, unknown>;

/** One column of the sheet: the field it shows, and whether as the date (UTC) of a time in epoch milliseconds. */
interface SheetColumn {
  field: string;
  date: boolean;
  /** Its letters in a cell reference (A, B, ..., AA). */
  letters: string;
}

const MAIN = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const RELATIONSHIPS = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const PACKAGE_RELATIONSHIPS = 'http://schemas.openxmlformats.org/package/2006/relationships';
const XML_HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
/** The cell style (index in styles.xml's cellXfs) of a date beside a time. */
const DATE_STYLE = 1;
const DATE_FORMAT = 'yyyy-mm-dd hh:mm:ss.000';
/** Spreadsheet serial days of 1970-01-01 (the 1900 date system). */
const EPOCH_SERIAL = 25569;
const DAY_MS = 86_400_000;
/**
 * The sheet's XML goes to the zip in pieces of about this many characters: a stream holds back the piece after one
 * it could not take at once, but deflates a piece it took whole, so the pieces bound what waits between the rows
 * and the response. Smaller pieces cost more than they save: at 64 KiB the zip's round trips (one deflate call on
 * the thread pool per piece) halved the writer's rate.
 */
const WRITE_BYTES = 256 * 1024;
/**
 * zlib's fastest level: the sheet's XML is the file's bulk and deflating it the export's largest cost; its
 * repeating markup compresses well even so.
 */
const COMPRESSION_LEVEL = 1;

/** Characters XML 1.0 cannot carry (controls other than tab, LF and CR; DEL as exceljs drops it): left out. */
const UNWRITABLE = /[\x00-\x08\x0B\x0C\x0E-\x1F\x7F\uFFFE\uFFFF]/g;
const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', '\r': '&#13;' };
/** Text that needs no escape (most values): written as it is, without the replaces' copies. */
const PLAIN = /^[^\x00-\x08\x0B\x0C\x0E-\x1F\x7F\uFFFE\uFFFF&<>"\r]*$/;

/** Text as XML character data: escaped, a CR as a reference (a parser would read a bare one as a line feed). */
export const xmlText = (text: string): string =>
  PLAIN.test(text) ? text : text.replace(UNWRITABLE, '').replace(/[&<>"\r]/g, (c) => ESCAPES[c]);
/** Text a reader would trim unless told to keep its spaces (xml:space, needed only then: it is 20 bytes a cell). */
const EDGE_SPACE = /^\s|\s$/;

/** The letters of the column at 0-based `index` in a cell reference. */
function columnLetters(index: number): string {
  let letters = '';
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26)) letters = String.fromCharCode(65 + ((n - 1) % 26)) + letters;
  return letters;
}

/**
 * One worksheet as an XLSX file, written by the export itself and zipped as it goes (yazl): the sheet's XML is
 * written batch by batch into a stream that the zip reads, deflates and hands on through streams that all pass
 * backpressure back, and the zip's bytes go on to the response paused while the response is. So the next batch
 * waits until the zip took the last one and the client took what the zip made of it: memory holds a batch, not the
 * file, however slowly the client reads.
 *
 * Text is always an inline string cell, never a formula, so nothing in a value is evaluated on opening; numbers are
 * numbers, booleans booleans, and each time is followed by its date (UTC) in a date-formatted column, unless the
 * resource gives the sheet's columns itself (its import's format): then exactly those.
 */
export class XlsxFile implements RowFile {
  private readonly zip = new ZipFile();
  private readonly sheetXml = new PassThrough();
  private readonly zipped: Readable;
  private readonly columns: SheetColumn[];
  private rowNumber = 0;

  constructor(
    private readonly output: ExportOutput,
    columns: ExportColumn[],
    sheetColumns: string[] | undefined,
    private readonly sheetName: string,
  ) {
    const fields = sheetColumns
      ? sheetColumns.map((field) => ({ field, date: false }))
      : columns.flatMap((c) => (c.time ? [false, true] : [false]).map((date) => ({ field: c.field, date })));
    this.columns = fields.map((column, i) => ({ ...column, letters: columnLetters(i) }));
    this.zipped = this.zip.outputStream as Readable;
    this.zip.addReadStream(this.sheetXml, 'xl/worksheets/sheet1.xml', { compressionLevel: COMPRESSION_LEVEL });
    for (const [path, xml] of Object.entries(this.packageParts())) this.zip.addBuffer(Buffer.from(XML_HEAD + xml), path);
    this.zip.end();
    this.zipped.on('data', (chunk: Buffer) => this.pass(chunk));
    // the client left: nothing more is zipped or sent
    output.signal.addEventListener('abort', () => [this.sheetXml, this.zipped].forEach((s) => s.destroy()), { once: true });
  }

  /** The zip's bytes on to the response; the zip waits while the response does. */
  private pass(chunk: Buffer): void {
    this.output.bytes += chunk.length;
    if (!this.output.out.write(chunk)) {
      this.zipped.pause();
      this.output.out.once('drain', () => this.zipped.resume());
    }
  }

  async start(): Promise<void> {
    const widths = this.columns.map(({ date }, i) => `<col min="${i + 1}" max="${i + 1}" width="${date ? 24 : 16}" customWidth="1"/>`);
    await this.write(`${XML_HEAD}<worksheet xmlns="${MAIN}"><cols>${widths.join('')}</cols><sheetData>`);
    let header = '<row r="1">';
    for (const { field, date, letters } of this.columns) header += cellXml(`${letters}1`, date ? `${field} (UTC)` : field);
    this.rowNumber = 1;
    await this.write(`${header}</row>`);
  }

  /** The rows' XML in pieces of about WRITE_BYTES, each taken by the zip before the next is made. */
  async rows(rows: Row[]): Promise<void> {
    let xml = '';
    for (const row of rows) {
      xml += this.rowXml(row);
      if (xml.length >= WRITE_BYTES) {
        await this.write(xml);
        xml = '';
      }
    }
    if (xml) await this.write(xml);
  }

  async end(): Promise<void> {
    const ended = once(this.zipped, 'end', { signal: this.output.signal });
    this.sheetXml.end('</sheetData></worksheet>');
    await ended;
    await drained(this.output.out, this.output.signal);
  }

  /** Into the zip, waiting until it takes more. */
  private async write(xml: string): Promise<void> {
    this.output.signal.throwIfAborted();
    if (!this.sheetXml.write(xml)) await drained(this.sheetXml, this.output.signal);
  }

  /** One row's cells, straight into one string (a million rows: no array or object per cell). */
  private rowXml(row: Row): string {
    const r = ++this.rowNumber;
    let xml = `<row r="${r}">`;
    for (const { field, date, letters } of this.columns) {
      const value = row[field];
      if (value === null || value === undefined) continue;
      xml += date
        ? `<c r="${letters}${r}" s="${DATE_STYLE}"><v>${EPOCH_SERIAL + Number(value) / DAY_MS}</v></c>`
        : cellXml(`${letters}${r}`, value);
    }
    return `${xml}</row>`;
  }

  /** The workbook around the sheet: its parts, their types and relations, and the date style. */
  private packageParts(): Record<string, string> {
    const types = 'application/vnd.openxmlformats-officedocument.spreadsheetml';
    return {
      '[Content_Types].xml':
        '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
        '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
        '<Default Extension="xml" ContentType="application/xml"/>' +
        `<Override PartName="/xl/workbook.xml" ContentType="${types}.sheet.main+xml"/>` +
        `<Override PartName="/xl/worksheets/sheet1.xml" ContentType="${types}.worksheet+xml"/>` +
        `<Override PartName="/xl/styles.xml" ContentType="${types}.styles+xml"/>` +
        '</Types>',
      '_rels/.rels':
        `<Relationships xmlns="${PACKAGE_RELATIONSHIPS}">` +
        `<Relationship Id="rId1" Type="${RELATIONSHIPS}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
      'xl/workbook.xml':
        `<workbook xmlns="${MAIN}" xmlns:r="${RELATIONSHIPS}"><sheets>` +
        `<sheet name="${xmlText(this.sheetName.slice(0, 31))}" sheetId="1" r:id="rId1"/></sheets></workbook>`,
      'xl/_rels/workbook.xml.rels':
        `<Relationships xmlns="${PACKAGE_RELATIONSHIPS}">` +
        `<Relationship Id="rId1" Type="${RELATIONSHIPS}/worksheet" Target="worksheets/sheet1.xml"/>` +
        `<Relationship Id="rId2" Type="${RELATIONSHIPS}/styles" Target="styles.xml"/></Relationships>`,
      'xl/styles.xml':
        `<styleSheet xmlns="${MAIN}"><numFmts count="1"><numFmt numFmtId="164" formatCode="${DATE_FORMAT}"/></numFmts>` +
        '<fonts count="1"><font><sz val="11"/><name val="Calibri"/></font></fonts>' +
        '<fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills>' +
        '<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>' +
        '<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>' +
        '<cellXfs count="2"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/>' +
        '<xf numFmtId="164" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/></cellXfs>' +
        '<cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles></styleSheet>',
    };
  }
}

/** One cell of a value: a number or a boolean as such; anything else as text (lists as their JSON). */
function cellXml(ref: string, value: unknown): string {
  if (typeof value === 'number' && Number.isFinite(value)) return `<c r="${ref}"><v>${value}</v></c>`;
  if (typeof value === 'boolean') return `<c r="${ref}" t="b"><v>${value ? 1 : 0}</v></c>`;
  const text = textOf(value);
  const t = EDGE_SPACE.test(text) ? '<t xml:space="preserve">' : '<t>';
  return `<c r="${ref}" t="inlineStr"><is>${t}${xmlText(text)}</t></is></c>`;
}
