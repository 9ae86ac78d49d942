/**
 * translation/importList names bad rows by their sheet row and writes nothing when one is bad; the text fields
 * a form may carry beside the file are bounded in number and size. The workbooks at and past the bounds
 * (150+ MiB once inflated, MAX_BATCH_ROWS rows and more) are in test/timing/xlsx-bomb.spec.ts, which also
 * measures that the event loop stays free meanwhile.
 */
import { CONFIG, Envelope, startApp, TestApp } from '../../support/test-app';
import { MIB, row, sheetOf, workbookWith } from '../../support/workbooks';

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

describe('translation/importList: the form beside the file is bounded (10 text fields of 1 KiB)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  /** Uploads `file` (when given) with text fields; resolves to the envelope and how long the answer took. */
  const upload = async (fields: [string, string][], file?: Buffer) => {
    let req = t.http().post(`${P}/importList`).set('Authorization', t.auth());
    for (const [name, value] of fields) req = req.field(name, value);
    if (file) req = req.attach('file', file, 'translations.xlsx');
    const started = performance.now();
    const res = await req;
    return { ...(res.body as Envelope), httpStatus: res.status, ms: performance.now() - started };
  };
  const workbook = (ns: string) => workbookWith({ sheet: sheetOf(3, (n) => row(n, ['en', ns, `k${n}`, 'v'])) });

  it('the file with a few small fields: imported (the fields are ignored)', async () => {
    const ns = `form${Date.now().toString(36)}`;
    const fields: [string, string][] = Array.from({ length: 10 }, (_, i) => [`f${i}`, 'x'.repeat(1024)]);
    expect(await upload(fields, await workbook(ns))).toMatchObject({ httpStatus: 200, status: 200, data: true });
    expect((await t.post(`${P}/count`, { namespace: ns })).data).toBe(3);
  });

  it('11 fields, or a field of more than 1 KiB: 400 naming the bound; nothing imported', async () => {
    const ns = `form${Date.now().toString(36)}x`;
    const eleven: [string, string][] = Array.from({ length: 11 }, (_, i) => [`f${i}`, 'x']);
    expect(await upload(eleven, await workbook(ns))).toMatchObject({ httpStatus: 200, status: 400, data: null, error: 'Too many fields' });
    expect(await upload([['note', 'x'.repeat(1025)]], await workbook(ns))).toMatchObject({
      httpStatus: 200,
      status: 400,
      error: 'Field value too long - note',
    });
    expect((await t.post(`${P}/count`, { namespace: ns })).data).toBe(0);
  });

  it('48 text fields of 1 MB and no file (was read whole, then answered 1002): 400 at the first field', async () => {
    // refused at f0: multer stops keeping field text past 1 KiB, and drains the rest of the body unread
    const fields: [string, string][] = Array.from({ length: 48 }, (_, i) => [`f${i}`, 'x'.repeat(MIB)]);
    const result = await upload(fields);
    expect(result).toMatchObject({ httpStatus: 200, status: 400, data: null, error: 'Field value too long - f0' });
    expect(result.ms).toBeLessThan(10_000);
  });
});
