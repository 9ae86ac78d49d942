/**
 * Both documents as code generators (OpenAPI Generator, openapi-typescript) read them: model fields start
 * unset (no `default` outside save bodies), epoch milliseconds and `revision` are 64-bit integers, every
 * answer is a named envelope schema shared by the operations of that shape, operation ids are the ones a
 * person would write, every tag is described, and /metrics is not part of the public API.
 */
import type { Json } from '../../support/json';
import { serviceDocuments } from '../../support/openapi-documents';

const METHODS = ['get', 'post', 'put', 'delete', 'patch'];
const operations = (doc: Json): { path: string; method: string; op: Json }[] =>
  Object.entries(doc.paths as Json).flatMap(([path, item]) =>
    METHODS.filter((m) => item[m]).map((method) => ({ path, method, op: item[method] })),
  );

/** Every schema object in the document with where it is. */
function* schemasIn(node: unknown, at: string): Generator<{ at: string; schema: Json }> {
  if (!node || typeof node !== 'object') return;
  if (Array.isArray(node)) return yield* node.flatMap((item, i) => [...schemasIn(item, `${at}/${i}`)]);
  const object = node as Json;
  if (object.properties) yield { at, schema: object };
  for (const [key, value] of Object.entries(object)) if (key !== 'example' && key !== 'examples') yield* schemasIn(value, `${at}/${key}`);
}

const EPOCH_MILLIS = /(Time|TimeStart|TimeEnd)$|^timestamp$|^expiresAt$/;

describe('OpenAPI documents for code generators', () => {
  const { each } = serviceDocuments();

  it(
    'carry `default` only in save bodies (the schemas a create reads)',
    each((service, doc) => {
      const found = [...schemasIn(doc.components.schemas, '#/components/schemas'), ...schemasIn(doc.paths, '#/paths')]
        .flatMap(({ at, schema }) =>
          Object.entries(schema.properties as Json)
            .filter(([, p]) => p.default !== undefined)
            .map(([name]) => `${at}/${name}`),
        )
        .filter((at) => !/^#\/components\/schemas\/[A-Za-z]+Save\//.test(at));
      expect({ service, found }).toEqual({ service, found: [] });
    }),
  );

  it(
    'type epoch milliseconds and revision as integer int64 in every schema',
    each((service, doc) => {
      const wrong = [...schemasIn(doc.components.schemas, '#/components/schemas')].flatMap(({ at, schema }) =>
        Object.entries(schema.properties as Json)
          .filter(([name]) => EPOCH_MILLIS.test(name) || name === 'revision')
          .filter(([, p]) => p.type !== 'integer' || p.format !== 'int64')
          .map(([name, p]) => `${at}/${name}: ${p.type} ${p.format ?? ''}`),
      );
      expect({ service, wrong }).toEqual({ service, wrong: [] });
    }),
  );

  it(
    'answer with named envelope schemas, one per shape, shared by the operations that answer it',
    each((service, doc) => {
      const inline = operations(doc)
        .flatMap(({ path, method, op }) =>
          Object.entries(op.responses as Json).map(([status, r]) => ({ key: `${method} ${path} ${status}`, r })),
        )
        .filter(({ r }) => !r.$ref && !r.content?.['application/json']?.schema?.$ref)
        .map(({ key }) => key);
      expect({ service, inline }).toEqual({ service, inline: [] });
      const answerOf = (suffix: string) =>
        new Set(
          operations(doc)
            .filter(({ path }) => path.endsWith(suffix))
            .map(({ op }) => op.responses['200'].content['application/json'].schema.$ref),
        );
      expect([...answerOf('/save')]).toEqual(['#/components/schemas/BooleanResult']);
      expect([...answerOf('/count')]).toEqual(['#/components/schemas/IntegerResult']);
      const page = doc.components.schemas[[...answerOf('/system-api/device/data-acquisition-device/page')][0]?.split('/').pop() ?? ''];
      if (service === 'device-service') expect(page.properties.extraData).toEqual({ $ref: '#/components/schemas/PageExtra' });
    }),
  );

  it(
    'document "the record or null" as a nullable schema of its own, never `nullable` beside `allOf`',
    each((service, doc) => {
      const found: string[] = [];
      const walk = (node: unknown, at: string): void => {
        if (!node || typeof node !== 'object') return;
        const object = node as Json;
        if (object.nullable === true && (object.allOf || object.$ref)) found.push(at);
        for (const [key, value] of Object.entries(object)) if (key !== 'example') walk(value, `${at}/${key}`);
      };
      walk(doc, '#');
      expect({ service, found }).toEqual({ service, found: [] });
      const getById = operations(doc).find(({ path }) => path.endsWith('/getById'))!.op;
      const result = doc.components.schemas[getById.responses['200'].content['application/json'].schema.$ref.split('/').pop()];
      expect(doc.components.schemas[result.properties.data.$ref.split('/').pop()]).toMatchObject({ type: 'object', nullable: true });
    }),
  );

  it(
    'name operations as a person would: lowerCamel resource + operation, unique, with the brief forms',
    each((service, doc) => {
      const ids = operations(doc).map(({ op }) => op.operationId as string);
      expect(ids.filter((id) => !/^[a-z][a-z0-9]*[A-Z][A-Za-z0-9]*$/.test(id))).toEqual([]);
      expect(new Set(ids).size).toBe(ids.length);
      if (service === 'main-service') {
        expect(doc.paths['/main-service/system-api/configuration/data-dictionary/save'].post.operationId).toBe('dataDictionarySave');
        expect(doc.paths['/main-service/system-api/message/email/page'].post.operationId).toBe('emailPage');
      } else
        expect(
          doc.paths['/device-service/main-api/device/data-acquisition-device/pushInfoByDataAcquisitionDeviceNo'].post.operationId,
        ).toBe('dataAcquisitionDevicePushInfoByDataAcquisitionDeviceNo');
    }),
  );

  it(
    'describe every tag the operations use',
    each((service, doc) => {
      const used = new Set(operations(doc).flatMap(({ op }) => op.tags as string[]));
      const described = new Map((doc.tags as Json[]).map((t) => [t.name, t.description]));
      const missing = [...used].filter((tag) => !described.get(tag) || described.get(tag) === tag);
      expect({ service, missing }).toEqual({ service, missing: [] });
    }),
  );

  it(
    "show each body's own wrong-type failure: the 1003 example of a JSON object body changes one of its fields (x-input)",
    each((service, doc) => {
      const gaps: string[] = [];
      for (const { path, method, op } of operations(doc)) {
        const body = op.requestBody?.content?.['application/json']?.schema;
        if (!body?.$ref) continue;
        const fields = Object.keys(doc.components.schemas[body.$ref.split('/').pop()].properties ?? {});
        const example = op.responses['200'].content['application/json'].examples?.status1003;
        const changed = Object.keys(example?.['x-input']?.set ?? {});
        if (fields.length && !(changed.length === 1 && fields.includes(changed[0]) && example.value.error.startsWith(changed[0])))
          gaps.push(`${method} ${path}: ${JSON.stringify(example?.['x-input'])} ${example?.value.error}`);
      }
      expect({ service, gaps }).toEqual({ service, gaps: [] });
    }),
  );

  it(
    'leave /metrics out (a scraper endpoint, not a client operation)',
    each((service, doc) => {
      expect({ service, metrics: Object.keys(doc.paths).filter((p) => p.endsWith('/metrics')) }).toEqual({ service, metrics: [] });
    }),
  );
});
