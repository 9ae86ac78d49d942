/** The resource's operations in the OpenAPI document. */
import type { Json } from '../json';
import { answerSchema } from '../openapi-walk';
import { TestApp } from '../test-app';
import { ResourceContext } from './context';

/** The app's document, read once per app: every resource of a group reads the same document of the group's app. */
const documents = new WeakMap<TestApp, Promise<Json>>();
function documentOf(t: TestApp): Promise<Json> {
  let doc = documents.get(t);
  if (!doc) {
    const read = async () => (await t.http().get('/main-service/v3/api-docs')).body as Json;
    documents.set(t, (doc = read()));
  }
  return doc;
}

export function describeOpenApi({ r, P, app }: ResourceContext): void {
  describe('OpenAPI', () => {
    const STANDARD: [string, string, string][] = [
      ['post', 'count', 'read'],
      ['get', 'getById', 'read'],
      ['post', 'list', 'read'],
      ['post', 'page', 'read'],
      ['delete', 'removeById', 'delete'],
      ['delete', 'removeByIds', 'delete'],
      ['post', 'save', 'create'],
      ['put', 'updateById', 'update'],
      ['post', 'deletedPage', 'read'],
      ['put', 'restoreById', 'update'],
      ['delete', 'purgeByIds', 'delete'],
      ['post', 'export', 'read'],
      ['post', 'historyPage', 'read'],
    ];
    /** The operations whose answer is the envelope (export's is a file). */
    const ENVELOPED = STANDARD.filter(([, op]) => op !== 'export');
    let doc: Json;
    beforeAll(async () => {
      doc = await documentOf(app());
    });
    /** The properties of a schema, following $ref, allOf and anyOf (a record or null). */
    const properties = (schema: Json | undefined): Json => {
      if (!schema) return {};
      if (schema.$ref) return properties(doc.components.schemas[String(schema.$ref).split('/').pop()!]);
      return Object.assign({}, ...[...(schema.allOf ?? []), ...(schema.anyOf ?? [])].map(properties), schema.properties ?? {});
    };
    const operation = (method: string, op: string): Json => doc.paths?.[`${P}/${op}`]?.[method] ?? {};
    const bodyProperties = (method: string, op: string) =>
      properties(operation(method, op).requestBody?.content?.['application/json']?.schema);

    it(`documents the 8 standard operations, the recycle bin's 3, export and historyPage, each with x-permission ${r.permission}:<action> (contract.md "Tenancy and access")`, () => {
      const actual = STANDARD.map(([m, op]) => [`${m.toUpperCase()} ${op}`, operation(m, op)['x-permission'] ?? null]);
      expect(actual).toEqual(STANDARD.map(([m, op, action]) => [`${m.toUpperCase()} ${op}`, `${r.permission}:${action}`]));
    });

    it('count, list and page document the exact filters (and the time range bounds)', () => {
      const range = r.timeRange ? [`${r.timeRange.field}Start`, `${r.timeRange.field}End`] : [];
      for (const op of ['count', 'list', 'page']) {
        const props = bodyProperties('post', op);
        expect({ op, missing: [...r.filterFields, ...range].filter((f) => !(f in props)) }).toEqual({ op, missing: [] });
        for (const bound of range) expect({ op, bound, type: props[bound].type }).toEqual({ op, bound, type: 'integer' });
      }
    });

    it('every 200 response is the envelope with typed data: the record for getById, arrays of it for list and page', () => {
      const data = (method: string, op: string): Json => answerSchema(doc, operation(method, op)).properties?.data ?? {};
      for (const [m, op] of ENVELOPED) {
        const d = data(m, op);
        expect({ op, typed: !!(d.type || d.$ref || d.allOf || d.oneOf || d.anyOf) }).toEqual({ op, typed: true });
      }
      const record = (d: Json) => Object.keys(properties(d));
      const readableRequired = r.requiredFields.filter((f) => !(r.writeOnly ?? []).includes(f));
      expect(record(data('get', 'getById'))).toEqual(
        expect.arrayContaining([r.idField, 'tenantId', 'revision', 'deleteTime', ...readableRequired]),
      );
      for (const op of ['list', 'page', 'deletedPage']) {
        expect({ op, type: data('post', op).type }).toEqual({ op, type: 'array' });
        expect(record(data('post', op).items)).toEqual(record(data('get', 'getById')));
      }
      const extra = answerSchema(doc, operation('post', 'page')).properties.extraData;
      expect(Object.keys(extra?.properties ?? {}).sort()).toEqual(['current', 'pages', 'size', 'total']);
    });

    it('export answers a file in each of its 3 formats (its refusals: the envelope) and takes the page body', () => {
      const content = (operation('post', 'export').responses?.['200']?.content ?? {}) as Json;
      expect(Object.keys(content).sort()).toEqual(
        [
          'application/json',
          'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
          'application/x-ndjson',
          'text/csv',
        ].sort(),
      );
      expect(content['text/csv'].schema.$ref).toBe('#/components/schemas/ExportFile');
      expect(Object.keys(content['application/json'].examples ?? {})).toEqual(expect.arrayContaining(['status400']));
      expect(Object.keys(bodyProperties('post', 'export'))).toEqual(expect.arrayContaining([...r.filterFields, 'sqlQuerySorter']));
    });

    it('the save body documents write-only fields as writeOnly; the record schema does not contain them', () => {
      const save = bodyProperties('post', 'save');
      const record = properties(answerSchema(doc, operation('get', 'getById')).properties?.data);
      expect(Object.keys(record)).toContain(r.idField);
      for (const secret of r.writeOnly ?? []) {
        expect({ secret, writeOnly: save[secret]?.writeOnly }).toEqual({ secret, writeOnly: true });
        expect(Object.keys(record)).not.toContain(secret);
      }
      for (const f of r.requiredFields) expect(Object.keys(save)).toContain(f);
    });
  });
}
