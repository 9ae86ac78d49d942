import { AppException, MAX_BATCH_ROWS, message } from '@app/common';
import { Logger, ServiceUnavailableException } from '@nestjs/common';
import { join } from 'node:path';
import { Piscina } from 'piscina';

export type SheetRow = { number: number; cells: string[] };

type Outcome = { outcome: 'read'; numbers: number[]; cells: string[] } | { outcome: 'too-many-rows' | 'unreadable' | 'no-sheet' };

/**
 * How a workbook is read off the event loop: one worker thread, started by the first import and stopped after a
 * minute without one (exceljs stays loaded between the imports of a batch). Its heap is bounded, so a workbook that
 * would need more fails alone. A few uploads wait their turn (`maxWaiting`); beyond them, the service answers 503
 * rather than holding more unpacked workbooks in memory.
 */
export const SHEET_READER = { maxWaiting: 4, idleTimeoutMs: 60_000, heapMb: 384, deadlineMs: 30_000 };

let reading = 0;

/** Runs `read` (a workbook's unpacking and reading) as one of at most 1 + maxWaiting in progress; beyond them, 503. */
export async function asOneOfFewReads<T>(read: () => Promise<T>): Promise<T> {
  if (reading > SHEET_READER.maxWaiting) throw new ServiceUnavailableException('Other workbooks are being read; retry shortly');
  reading++;
  try {
    return await read();
  } finally {
    reading--;
  }
}

let pool: Piscina<{ archive: Uint8Array; columns: number; maxRows: number }, Outcome> | undefined;
function readers() {
  if (pool) return pool;
  pool = new Piscina({
    filename: join(__dirname, 'sheet-rows.worker.js'),
    minThreads: 0,
    maxThreads: 1,
    idleTimeout: SHEET_READER.idleTimeoutMs,
    resourceLimits: { maxOldGenerationSizeMb: SHEET_READER.heapMb },
  });
  // a thread that fails with no read in hand (its start) is reported here; unheard, the event would end the process
  const logger = new Logger('SheetReader');
  pool.on('error', (error: Error) => logger.warn(`workbook reader thread failed: ${error.message}`));
  return pool;
}

/**
 * The rows of the first worksheet of `archive` (see storedZip for the parts' order), with the texts of its first
 * `columns` cells, at most MAX_BATCH_ROWS after the header. Read by exceljs on a worker thread: parsing 50,000 rows of
 * XML takes seconds of CPU, which on the service's thread would hold every other request that long.
 */
export async function readSheetRows(archive: Buffer, columns: number): Promise<SheetRow[]> {
  let result: Outcome;
  try {
    result = await readers().run({ archive, columns, maxRows: MAX_BATCH_ROWS }, { signal: AbortSignal.timeout(SHEET_READER.deadlineMs) });
  } catch (error) {
    throw readerFailure(error);
  }
  switch (result.outcome) {
    case 'too-many-rows':
      throw AppException.validation(message('file may contain at most {{max}} rows', { max: MAX_BATCH_ROWS }));
    case 'unreadable':
      throw AppException.validation('file is not a readable XLSX workbook');
    case 'no-sheet':
      throw AppException.validation('file has no worksheet');
  }
  const { numbers, cells } = result;
  return numbers.map((number, i) => ({ number, cells: cells.slice(i * columns, (i + 1) * columns) }));
}

/** The answer for a read that did not finish: the workbook took too long or too much memory. */
function readerFailure(error: unknown): AppException {
  // duck-typed: the errors come from another realm (the thread, piscina), where instanceof Error need not hold
  const { name, message: text, code } = (error ?? {}) as { name?: string; message?: string; code?: string };
  const reason = `${name} ${text} ${code}`;
  if (/abort/i.test(reason))
    return AppException.validation(message('file could not be read within {{seconds}} s', { seconds: SHEET_READER.deadlineMs / 1000 }));
  if (/ERR_WORKER_OUT_OF_MEMORY/.test(reason)) return AppException.validation('file needs too much memory to read');
  return AppException.validation('file is not a readable XLSX workbook');
}
