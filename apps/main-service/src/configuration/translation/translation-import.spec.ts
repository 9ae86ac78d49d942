import { Workbook } from 'exceljs';
import { readTranslationWorkbook } from './translation-import';

describe('readTranslationWorkbook', () => {
  it('reads the rows of a workbook exceljs wrote (inflated within bounds, repacked stored, parsed by exceljs)', async () => {
    const workbook = new Workbook();
    const sheet = workbook.addWorksheet('translations');
    sheet.addRow(['language', 'namespace', 'key', 'value']);
    sheet.addRow(['en', 'common', 'hello', 'Hello']);
    sheet.addRow(['de', 'common', 'hello', 'Hallo']);
    const rows = await readTranslationWorkbook(Buffer.from(await workbook.xlsx.writeBuffer()));
    expect(rows).toMatchObject([
      { language: 'en', namespace: 'common', key: 'hello', value: 'Hello' },
      { language: 'de', namespace: 'common', key: 'hello', value: 'Hallo' },
    ]);
  });
});
