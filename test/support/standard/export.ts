/** export: the live records as a file (CSV, NDJSON, XLSX), as page shows them and in its order, with its filters. */
import { csvOf, ndjsonOf, XLSX_TYPE, xlsxOf } from '../export-files';
import type { Json } from '../json';
import { pick } from './client';
import { ResourceContext } from './context';

/** A value as a CSV cell has it: empty for null, JSON for lists, a leading quote before what a spreadsheet would run. */
const csvCell = (value: unknown): string => {
  if (value === null || value === undefined) return '';
  const text = typeof value === 'object' ? JSON.stringify(value) : String(value);
  return typeof value === 'string' && /^[=+\-@\t\r]/.test(value) ? `'${text}` : text;
};

export function describeExport({ r, c, id }: ResourceContext): void {
  describe('export', () => {
    /** Every live record as page shows it (the table holds far fewer than a page of 1000 here). */
    const paged = async (body: Json = {}): Promise<Json[]> => {
      const page = await c.page({ ...body, current: 1, pageSize: 1000 });
      expect(page).toMatchObject({ status: 200 });
      expect(page.extraData.total).toBeLessThan(1000);
      return page.data as Json[];
    };

    it("CSV (the default), NDJSON and XLSX: every live record as page shows it, in page's order, never a secret", async () => {
      await c.create();
      await c.create();
      const records = await paged();
      const fields = Object.keys(records[0]);

      const ndjson = await c.exportFile({}, 'application/x-ndjson');
      expect(ndjson.headers['content-type']).toMatch(/^application\/x-ndjson/);
      expect(ndjsonOf(ndjson)).toEqual(records);

      const csvAnswer = await c.exportFile();
      expect(csvAnswer.status).toBe(200);
      expect(csvAnswer.headers['content-type']).toBe('text/csv; charset=utf-8');
      expect(csvAnswer.headers['content-disposition']).toMatch(new RegExp(`^attachment; filename="${r.segment}-\\d{8}-\\d{6}\\.csv"$`));
      expect(csvAnswer.headers['x-accel-buffering']).toBe('no');
      const csv = csvOf(csvAnswer);
      expect(csv.header).toEqual(fields);
      expect(csv.rows).toEqual(records.map((record) => fields.map((f) => csvCell(record[f]))));
      for (const secret of r.writeOnly ?? []) expect(csv.header).not.toContain(secret);

      const xlsx = await xlsxOf(await c.exportFile({}, XLSX_TYPE));
      expect(xlsx.rows.length).toBe(records.length);
      if (xlsx.header.includes(r.idField)) {
        const ids = xlsx.rows.map((row) => row[xlsx.header.indexOf(r.idField)]);
        expect(ids).toEqual(records.map(id));
        // each time as epoch milliseconds, with its date (UTC) beside it
        const created = xlsx.header.indexOf('createdTime');
        expect(xlsx.header[created + 1]).toBe('createdTime (UTC)');
        expect(xlsx.rows.map((row) => [row[created], (row[created + 1] as Date).getTime()])).toEqual(
          records.map((record) => [record.createdTime, record.createdTime]),
        );
      }
    });

    it("filters and sqlQuerySorter as page's: the same records in the same order", async () => {
      const made = await c.create();
      const filtered = pick(made, r.filterFields.slice(0, 1));
      for (const body of [filtered, { sqlQuerySorter: { field: 'createdTime', order: 'descend' } }]) {
        const expected = (await paged(body)).map(id);
        const exported = ndjsonOf(await c.exportFile(body, 'application/x-ndjson')).map(id);
        expect({ body, exported }).toEqual({ body, exported: expected });
      }
      expect((await c.exportFile({ sqlQuerySorter: { field: 'noSuchField' } })).envelope).toMatchObject({ status: 400, data: null });
    });
  });
}
