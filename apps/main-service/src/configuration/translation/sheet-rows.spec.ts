import { stream } from 'exceljs';
import { PassThrough } from 'node:stream';
import { row, sheetOf, workbookWith } from '../../../../../test/support/workbooks';

type Reader = typeof import('./translation-import').readTranslationWorkbook;

/** readTranslationWorkbook over a fresh sheet reader (its own worker pool) whose bounds are changed as given. */
async function readerWith(bounds: Partial<typeof import('./sheet-rows').SHEET_READER>): Promise<Reader> {
  let read: Reader | undefined;
  // a module copy of their own, loaded with require: import() of a relative path is ESM to the compiler settings
  jest.isolateModules(() => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    Object.assign((require('./sheet-rows') as typeof import('./sheet-rows')).SHEET_READER, bounds);
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    read = (require('./translation-import') as typeof import('./translation-import')).readTranslationWorkbook;
  });
  return read!;
}

/**
 * A workbook of a header and `rows` translation rows, its sheet XML written directly (quicker to make than with
 * exceljs); each value `valueBytes` long at least.
 */
const workbookOf = (rows: number, valueBytes = 0): Promise<Buffer> =>
  workbookWith({ sheet: sheetOf(rows, (n) => row(n, ['en', 'common', `key${n - 2}`, `value ${n}`.padEnd(valueBytes, '.')])) });

const refusal = async (read: Promise<unknown>): Promise<Error> => {
  try {
    await read;
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected a refusal');
};

describe('the sheet reader (a worker thread): its bounds', () => {
  it('reads the rows in the thread, in order, with their sheet row numbers', async () => {
    const rows = await (await readerWith({}))(await workbookOf(3));
    expect(rows.map((r) => r.key)).toEqual(['key0', 'key1', 'key2']);
  });

  it('reads characters of several bytes whole wherever they fall in the sheet (exceljs decodes each chunk alone)', async () => {
    // umlauts (2 bytes) and an emoji (4) at every byte offset, in a workbook as exceljs's streaming writer makes it
    // (the export's): some straddle the slices the reader feeds exceljs
    const text = (n: number) => `${'ü'.repeat(n % 4)}Grüße 😀 ${'x'.repeat(n % 7)}`;
    const out = new PassThrough();
    const chunks: Buffer[] = [];
    out.on('data', (chunk: Buffer) => chunks.push(chunk));
    const workbook = new stream.xlsx.WorkbookWriter({ stream: out, useSharedStrings: false });
    const sheet = workbook.addWorksheet('translations');
    sheet.addRow(['language', 'namespace', 'key', 'value']).commit();
    for (let i = 0; i < 20_000; i++) sheet.addRow(['en', 'common', `key${i}`, text(i)]).commit();
    sheet.commit();
    await workbook.commit();
    const rows = await (await readerWith({}))(Buffer.concat(chunks));
    expect(rows.length).toBe(20_000);
    expect(rows.filter((r, i) => r.value !== text(i)).map((r) => r.value)).toEqual([]);
  }, 60_000);

  it('a read past its deadline is refused with 400, naming the deadline', async () => {
    const error = await refusal((await readerWith({ deadlineMs: 1 }))(await workbookOf(2000)));
    expect(error).toMatchObject({ name: 'AppException', bodyStatus: 400, message: 'file could not be read within 0.001 s' });
  });

  it('a read that needs more than the thread’s heap is refused with 400, and the next read gets a new thread', async () => {
    // a heap twice what exceljs needs to start and read one row (a thread of 12 MB cannot start, one of 16 MB just
    // can, so its next read could fail on its own), and a sheet near the entry bound of long values, which needs
    // several times that heap: many small rows can keep the collector busy near the limit for longer than the
    // deadline before the thread gives up
    const read = await readerWith({ heapMb: 32 });
    const error = await refusal(read(await workbookOf(2_800, 10_000)));
    expect(error).toMatchObject({ name: 'AppException', bodyStatus: 400, message: 'file needs too much memory to read' });
    expect(await read(await workbookOf(1))).toHaveLength(1);
  }, 60_000);

  it('uploads beyond the few that wait their turn are refused with 503, the others read', async () => {
    const read = await readerWith({ maxWaiting: 0 });
    const file = await workbookOf(10);
    const outcomes = await Promise.allSettled([read(file), read(file), read(file)]);
    const refused = outcomes.filter((o) => o.status === 'rejected').map((o) => (o as PromiseRejectedResult).reason as Error);
    expect(outcomes.filter((o) => o.status === 'fulfilled')).not.toHaveLength(0);
    expect(refused).not.toHaveLength(0);
    for (const error of refused) {
      expect(error).toMatchObject({ name: 'ServiceUnavailableException', message: 'Other workbooks are being read; retry shortly' });
    }
  }, 30_000);
});
