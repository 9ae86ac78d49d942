import { AppException, BodyStatus, message, checkRows } from '@app/common';
import { inflateEntries, UnreadableZipError, ZipBoundError } from './bounded-zip';
import { asOneOfFewReads, readSheetRows, SheetRow } from './sheet-rows';
import { storedZip } from './stored-zip';
import { TranslationSave } from './translation.dto';

const HEADER = ['language', 'namespace', 'key', 'value'];
const MIB = 1024 * 1024;

/**
 * What an upload may inflate to: far above a legitimate sheet of MAX_BATCH_ROWS rows (a few MiB of XML),
 * far below what would hurt the process.
 */
export const XLSX_BOUNDS = { maxEntries: 1000, maxEntryBytes: 32 * MIB, maxTotalBytes: 40 * MIB };

const WORKBOOK = 'xl/workbook.xml';
const WORKBOOK_RELS = 'xl/_rels/workbook.xml.rels';
const SHARED_STRINGS = 'xl/sharedStrings.xml';
const WORKSHEET = /^xl\/worksheets\/sheet(\d+)\.xml$/;
const EMPTY_SHARED_STRINGS =
  '<?xml version="1.0" encoding="UTF-8"?><sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="0" uniqueCount="0"/>';

/**
 * Reads the first worksheet of an XLSX upload: a header row `language | namespace | key | value`,
 * then one entry per row. Any bad row refuses the import, reported by its sheet row number.
 */
export async function readTranslationWorkbook(file: Buffer | undefined): Promise<TranslationSave[]> {
  if (!file?.length) throw new AppException(BodyStatus.MISSING_PARAMETER, "Required multipart part 'file' is missing");
  const sheetRows = await asOneOfFewReads(() => readFirstSheet(file));
  const [header, ...data] = sheetRows;
  if (header?.number !== 1 || header.cells.map((c) => c.trim().toLowerCase()).join('|') !== HEADER.join('|'))
    throw AppException.validation(message('first row must be the header {{header}}', { header: HEADER.join(' | ') }));
  const filled = data.filter((r) => r.cells.some((c) => c.trim() !== ''));
  if (!filled.length) throw AppException.validation('file contains no translation rows');
  const rows = filled.map(({ cells }) => ({
    language: cells[0].trim(),
    namespace: cells[1].trim(),
    key: cells[2].trim(),
    value: cells[3] === '' ? undefined : cells[3],
  }));
  // properties named plainly: each clause is put after its sheet row number ("row 3: key is required")
  const { valid, failures } = await checkRows(TranslationSave, rows, () => '');
  if (failures.length)
    throw AppException.validation(
      failures
        .slice(0, 50)
        .flatMap(({ index, failure }) =>
          failure.parts.map((clause) => message('row {{row}}: {{clause}}', { row: filled[index].number, clause })),
        ),
    );
  return valid.map((v) => v.row);
}

/**
 * The rows of the first worksheet (cell texts of the four columns), at most MAX_BATCH_ROWS after the header:
 * reading stops at the first row beyond. Only the parts a sheet needs are inflated, within XLSX_BOUNDS, then handed
 * to exceljs on a worker thread in the order that lets it parse the sheet as it comes (no temporary files).
 */
async function readFirstSheet(file: Buffer): Promise<SheetRow[]> {
  let parts: Map<string, Buffer>;
  try {
    parts = await inflateEntries(
      file,
      (path) => path === WORKBOOK || path === WORKBOOK_RELS || path === SHARED_STRINGS || WORKSHEET.test(path),
      XLSX_BOUNDS,
    );
  } catch (error) {
    if (error instanceof ZipBoundError)
      throw AppException.validation(message('file is too large once unpacked: {{reason}}', { reason: error.message }));
    if (error instanceof UnreadableZipError) throw AppException.validation('file is not a readable XLSX workbook');
    throw error;
  }
  const sheets = [...parts.keys()].filter((p) => WORKSHEET.test(p)).sort((a, b) => sheetNumber(a) - sheetNumber(b));
  if (!parts.has(WORKBOOK) || !parts.has(WORKBOOK_RELS)) throw AppException.validation('file is not a readable XLSX workbook');
  if (!sheets.length) throw AppException.validation('file has no worksheet');

  const archive = storedZip(
    [WORKBOOK_RELS, WORKBOOK, SHARED_STRINGS, ...sheets].map((path) => [path, parts.get(path) ?? Buffer.from(EMPTY_SHARED_STRINGS)]),
  );
  parts.clear();
  return readSheetRows(archive, HEADER.length);
}

const sheetNumber = (path: string): number => Number(WORKSHEET.exec(path)![1]);
