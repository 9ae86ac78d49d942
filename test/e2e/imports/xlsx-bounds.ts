/**
 * translation/importList reads hostile workbooks within bounds: a few hundred KiB that inflate to 150+ MiB
 * (in the sheet, or in the shared strings) are refused with a 400 envelope; a sheet of more than
 * MAX_BATCH_ROWS rows is refused without reading the rest; nothing is written; bad rows are named by their
 * sheet row. That the event loop stays free meanwhile is measured in test/timing/xlsx-bomb.spec.ts.
 */
import { MAX_BATCH_ROWS } from '@app/common';
import { CONFIG, Envelope, startApp, TestApp } from '../../support/test-app';
import { MIB, row, sharedStringsBomb, sheetBomb, sheetOf, tooManyRows, workbookWith } from '../../support/workbooks';

const P = `${CONFIG}/translation`;

describe('translation/importList: workbooks within bounds', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  const upload = async (file: Buffer): Promise<Envelope> => {
    const res = await t.http().post(`${P}/importList`).set('Authorization', t.auth()).attach('file', file, 'translations.xlsx');
    return { ...(res.body as Envelope), httpStatus: res.status };
  };
  const entriesOf = async (namespace: string): Promise<number> => (await t.post(`${P}/count`, { namespace })).data as number;

  it.each([
    { name: 'a sheet', make: sheetBomb },
    { name: 'shared strings', make: sharedStringsBomb },
  ])(
    '$name inflating to 150+ MiB: 400 envelope, nothing written',
    async ({ make }) => {
      const ns = `bomb${Date.now().toString(36)}`;
      const bomb = await make(ns);
      expect(bomb.length).toBeLessThan(1 * MIB); // far under the upload bound: it is the inflation that must be bounded
      const result = await upload(bomb);
      expect(result).toMatchObject({ httpStatus: 200, status: 400, path: `${P}/importList`, data: null });
      expect(result.error).toContain('too large once unpacked');
      expect(await entriesOf(ns)).toBe(0);
    },
    120_000,
  );

  it(`a sheet of more than ${MAX_BATCH_ROWS} rows is refused at row ${MAX_BATCH_ROWS + 2}, without reading the rest`, async () => {
    const ns = `manyrows${Date.now().toString(36)}`;
    const result = await upload(await tooManyRows(ns));
    expect(result).toMatchObject({ httpStatus: 200, status: 400, data: null });
    expect(result.error).toBe(`file may contain at most ${MAX_BATCH_ROWS} rows`);
    expect(await entriesOf(ns)).toBe(0);
  }, 120_000);

  it(`a sheet of exactly ${MAX_BATCH_ROWS} rows is read whole (its bad last row is named by its sheet row)`, async () => {
    const ns = `maxrows${Date.now().toString(36)}`;
    const last = MAX_BATCH_ROWS + 1;
    const sheet = sheetOf(MAX_BATCH_ROWS, (n) => row(n, [n === last ? 'not a language!' : 'en', ns, `k${n}`, 'v']));
    const result = await upload(await workbookWith({ sheet }));
    expect(result).toMatchObject({ httpStatus: 200, status: 400, data: null });
    expect(result.error).toMatch(new RegExp(`^row ${last}: language must`));
    expect(await entriesOf(ns)).toBe(0);
  }, 120_000);

  it('a row failing several rules is reported as "row N: ..." for each, never by its batch position', async () => {
    const ns = `rows${Date.now().toString(36)}`;
    const sheet = sheetOf(3, (n) => (n === 3 ? row(n, ['not a language!', ns, '', 'v']) : row(n, ['en', ns, `k${n}`, 'v'])));
    const result = await upload(await workbookWith({ sheet }));
    expect(result).toMatchObject({ httpStatus: 200, status: 400, data: null });
    expect(result.error).toMatch(/^row 3: /);
    expect(result.error).toContain('language');
    expect(result.error).toContain('key');
    expect(result.error).not.toMatch(/\[\d+\]/);
    expect(await entriesOf(ns)).toBe(0);
  });
});
