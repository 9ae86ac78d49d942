/**
 * translation/importList names bad rows by their sheet row and writes nothing when one is bad. The workbooks at
 * and past the bounds (150+ MiB once inflated, MAX_BATCH_ROWS rows and more) are in test/timing/xlsx-bomb.spec.ts,
 * which also measures that the event loop stays free meanwhile.
 */
import { CONFIG, Envelope, startApp, TestApp } from '../../support/test-app';
import { row, sheetOf, workbookWith } from '../../support/workbooks';

const P = `${CONFIG}/translation`;

describe('translation/importList: rows named by their sheet row', () => {
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
