/**
 * Defaults on create: state fields a caller need not know may be omitted on save, the stored record shows
 * their defaults, and the save body's schema shows the same values as `default`. No other schema carries a
 * `default`: generated clients initialise model fields from it and would send it as if the caller had set it.
 */
/** The message group's path (the contract's, spelled out: this test checks what clients see). */
const MESSAGE_PREFIX = '/main-service/system-api/message';
import { STANDARD_ONLY } from '../../support/standard/context';
import { startApp, TestApp } from '../../support/test-app';
import type { Json } from '../../support/json';

// an OpenAPI document is walked as plain JSON

const MINIMAL: { segment: string; idField: string; body: Json; defaults: Json }[] = [
  {
    segment: 'email',
    idField: 'emailId',
    body: { fromAddress: 'noreply@example.com', toAddresses: ['alice@example.com'], subject: 'Hello', content: 'Hi Alice' },
    defaults: { status: 'PENDING', sendTime: null, retryCount: 0 },
  },
  {
    segment: 'sms',
    idField: 'smsId',
    body: { phoneNumbers: ['+8613800138000'], content: 'Your code is 123456' },
    defaults: { status: 'PENDING', sendTime: null, retryCount: 0 },
  },
  {
    segment: 'sms-package',
    idField: 'smsPackageId',
    body: { name: '10,000 SMS', totalCount: 10000 },
    defaults: { status: 'ACTIVE', usedCount: 0, expireTime: null },
  },
  {
    segment: 'notification',
    idField: 'notificationId',
    body: { title: 'Maintenance tonight', content: 'Down from 22:00' },
    defaults: { level: 'INFO', targetType: 'ALL', status: 'DRAFT', publishTime: null },
  },
];

const camel = (kebab: string) => kebab.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());

describe('defaults on create', () => {
  let t: TestApp;
  let doc: Json;
  beforeAll(async () => {
    // no delivery attempt: it would change a message's status and retry count between its save and its read
    t = await startApp(STANDARD_ONLY);
    doc = (await t.http().get('/main-service/v3/api-docs')).body;
  });
  afterAll(async () => {
    await t?.close();
  });

  const resolve = (s: Json | undefined): Json => (s?.$ref ? resolve(doc.components.schemas[String(s.$ref).split('/').pop()!]) : (s ?? {}));
  const properties = (s: Json | undefined): Json =>
    Object.assign({}, ...(resolve(s).allOf ?? []).map(properties), resolve(s).properties ?? {});
  const saveSchema = (path: string) => doc.paths[path].post.requestBody.content['application/json'].schema;

  it.each(MINIMAL)('$segment: the minimal body saves, and getById shows the defaults', async ({ segment, idField, body, defaults }) => {
    const id = `min${camel(segment).replace(/[^A-Za-z]/g, '')}1`;
    const saved = await t.post(`${MESSAGE_PREFIX}/${segment}/save`, { ...body, [idField]: id });
    expect({ status: saved.status, error: saved.error, data: saved.data }).toEqual({ status: 200, error: null, data: true });
    const stored = (await t.get(`${MESSAGE_PREFIX}/${segment}/getById?id=${id}`)).data;
    expect(stored).toMatchObject({ ...body, ...defaults, [idField]: id, revision: 1 });
  });

  it.each(MINIMAL)(
    '$segment: only the save body shows the defaults (not the record, update, filter, list or page schemas); the defaulted fields are not required',
    ({ segment, defaults }) => {
      const path = `${MESSAGE_PREFIX}/${segment}/save`;
      const save = properties(saveSchema(path));
      const required: string[] = resolve(saveSchema(path)).required ?? [];
      const name = camel(`-${segment}`);
      const record = properties({ $ref: `#/components/schemas/${name}` });
      const others = ['Update', 'Filter', 'ListRequest', 'PageRequest'].map((suffix) => ({
        suffix,
        props: properties({ $ref: `#/components/schemas/${name}${suffix}` }),
      }));
      for (const [field, value] of Object.entries(defaults).filter(([, v]) => v !== null)) {
        expect({ field, save: save[field]?.default, record: record[field]?.default }).toEqual({ field, save: value, record: undefined });
        for (const { suffix, props } of others.filter((o) => field in o.props))
          expect({ field, suffix, default: props[field].default }).toEqual({ field, suffix, default: undefined });
      }
      // the update body tells the create default in words
      const update = others[0].props;
      for (const [field, value] of Object.entries(defaults).filter(([f, v]) => v !== null && f in update))
        expect(update[field].description).toContain(`A create that omits it stores ${JSON.stringify(value)}.`);
      expect(required.filter((f) => f in defaults)).toEqual([]);
      for (const field of Object.keys(defaults).filter((f) => defaults[f] === null))
        expect({ field, nullable: record[field]?.nullable }).toEqual({ field, nullable: true });
    },
  );

  it('every save of main-service stores the documented `default` of each omitted field', async () => {
    const mismatches: Json[] = [];
    const saves = Object.keys(doc.paths).filter((p) => p.endsWith('/save') && doc.paths[p].post);
    for (const [i, path] of saves.entries()) {
      const schema = saveSchema(path);
      const props = properties(schema);
      const required: string[] = resolve(schema).required ?? [];
      const idField = `${camel(path.split('/').slice(-2, -1)[0])}Id`;
      const id = `dflt${i}`;
      const body: Json = { [idField]: id };
      for (const field of required) body[field] = props[field].example ?? (props[field].enum?.[0] as unknown) ?? 'x';
      const saved = await t.post(path, body);
      if (saved.status !== 200) {
        mismatches.push({ path, saved: saved.status, error: saved.error });
        continue;
      }
      const stored = (await t.get(`${path.replace(/save$/, 'getById')}?id=${id}`)).data ?? {};
      for (const [field, property] of Object.entries(props)) {
        if (property.default !== undefined && !required.includes(field) && !property.writeOnly && stored[field] !== property.default)
          mismatches.push({ path, field, documented: property.default, stored: stored[field] });
      }
    }
    expect(mismatches).toEqual([]);
  });
});
