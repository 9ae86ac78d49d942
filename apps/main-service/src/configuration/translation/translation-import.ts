import { AppException, BodyStatus, MAX_BATCH_ROWS, validateRows } from '@app/common';
import { Workbook } from 'exceljs';
import { TranslationSave } from './translation.dto';

const HEADER = ['language', 'namespace', 'key', 'value'];

/**
 * Reads the first worksheet of an XLSX upload: a header row `language | namespace | key | value`,
 * then one entry per row. Any bad row refuses the import, reported by its sheet row number.
 */
export async function readTranslationWorkbook(file: Buffer | undefined): Promise<TranslationSave[]> {
  if (!file?.length) throw new AppException(BodyStatus.MISSING_PARAMETER, "Required multipart part 'file' is missing");
  const workbook = new Workbook();
  try {
    await workbook.xlsx.load(file as unknown as ArrayBuffer);
  } catch {
    throw AppException.validation('file is not a readable XLSX workbook');
  }
  const sheet = workbook.worksheets[0];
  if (!sheet) throw AppException.validation('file has no worksheet');
  const header = HEADER.map((_, i) => sheet.getRow(1).getCell(i + 1).text.trim().toLowerCase());
  if (header.join('|') !== HEADER.join('|')) throw AppException.validation(`first row must be the header ${HEADER.join(' | ')}`);
  if (sheet.rowCount - 1 > MAX_BATCH_ROWS) throw AppException.validation(`file may contain at most ${MAX_BATCH_ROWS} rows`);
  const rows: Record<string, string | undefined>[] = [];
  const sheetRows: number[] = [];
  sheet.eachRow({ includeEmpty: false }, (row, number) => {
    if (number === 1) return;
    const cells = HEADER.map((_, i) => row.getCell(i + 1).text);
    if (cells.every((c) => c.trim() === '')) return;
    rows.push({ language: cells[0].trim(), namespace: cells[1].trim(), key: cells[2].trim(), value: cells[3] === '' ? undefined : cells[3] });
    sheetRows.push(number);
  });
  if (!rows.length) throw AppException.validation('file contains no translation rows');
  const { valid, errors } = await validateRows(TranslationSave, rows);
  if (errors.length) {
    const report = errors.slice(0, 50).map((e) => `row ${sheetRows[e.index]}: ${e.error.replace(/^\[\d+\]\./, '')}`);
    throw AppException.validation(report.join('; '));
  }
  return valid.map((v) => v.row);
}
