/**
 * Every answer of every operation validates against the schema its document gives for that HTTP status,
 * with a validator that follows OpenAPI 3.0.3 to the letter (Ajv: `nullable` only widens its own `type`,
 * undeclared properties refused): success, found and not found, without credentials, and each documented
 * failure example, sent as its `x-input` says, which must also answer exactly the example's status and text.
 */
import Ajv, { ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { DeviceTestApp, numberParam, SECRET, startDeviceApp, uniqueNo } from '../../support/device-app';
import type { Json } from '../../support/json';
import { swaggerUiSample } from '../../support/openapi-walk';
import { startApp, TestApp } from '../../support/test-app';
import { budget } from '../../support/time-budget';

const METHODS = ['get', 'post', 'put', 'delete'] as const;
const camel = (kebab: string) => kebab.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());

/** Ajv over the document's schemas; object schemas without `additionalProperties` get `false` (nothing undeclared may appear). */
function validatorOf(doc: Json): (schema: Json) => ValidateFunction {
  const ajv = new Ajv({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addFormat('int64', { type: 'number', validate: (n: number) => Number.isSafeInteger(n) });
  ajv.addFormat('int32', { type: 'number', validate: (n: number) => Number.isInteger(n) && Math.abs(n) <= 2 ** 31 });
  ajv.addFormat('binary', () => true);
  const closed = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(closed);
    if (!node || typeof node !== 'object') return node;
    const copy: Json = Object.fromEntries(Object.entries(node).map(([k, v]) => [k, k === 'example' ? v : closed(v)]));
    if (typeof copy.$ref === 'string') copy.$ref = copy.$ref.replace('#/components/schemas/', 'components#/definitions/');
    if (copy.properties && copy.additionalProperties === undefined) copy.additionalProperties = false;
    return copy;
  };
  ajv.addSchema({ $id: 'components', definitions: closed(doc.components.schemas) as Json });
  const compiled = new Map<string, ValidateFunction>();
  return (schema) => {
    const key = JSON.stringify(schema);
    if (!compiled.has(key)) compiled.set(key, ajv.compile(closed(schema) as Json));
    return compiled.get(key)!;
  };
}

interface Call {
  method: (typeof METHODS)[number];
  path: string;
  query: Record<string, string | string[]>;
  body?: unknown;
  raw?: string;
  authorization?: string;
}

interface Answer {
  http: number;
  body: Json;
}

describe('every answer validates against its documented schema (strict OpenAPI 3.0.3)', () => {
  let main: TestApp;
  let device: DeviceTestApp;
  const docs: Record<string, { app: () => TestApp; doc: Json }> = {};

  beforeAll(async () => {
    [main, device] = await Promise.all([startApp(), startDeviceApp()]);
    docs['main-service'] = { app: () => main, doc: (await main.http().get('/main-service/v3/api-docs')).body };
    docs['device-service'] = { app: () => device, doc: (await device.http().get('/device-service/v3/api-docs')).body };
  });
  afterAll(async () => {
    await Promise.all([main?.close(), device?.close()]);
  });

  async function send(app: TestApp, call: Call): Promise<Answer> {
    let req = app.http()[call.method](call.path).query(call.query);
    if (call.authorization) req = req.set('Authorization', call.authorization);
    if (call.raw !== undefined) req = req.set('Content-Type', 'application/json').send(call.raw);
    else if (call.body !== undefined) req = req.send(call.body as object);
    const res = await req;
    return { http: res.status, body: res.body as Json };
  }

  const responseSchema = (doc: Json, op: Json, http: number): Json | undefined => {
    let response = op.responses[String(http)];
    if (response?.$ref) response = doc.components.responses[response.$ref.split('/').pop()];
    return response?.content?.['application/json']?.schema;
  };

  it.each(['main-service', 'device-service'])(
    '%s: success, found, missing, unauthenticated and every documented failure input',
    async (service) => {
      const { app, doc } = docs[service];
      const validate = validatorOf(doc);
      const admin = app().auth({ roles: ['administrator'] });
      // the device calls need a registered device and server, and their tokens
      const numbers: Json = {};
      const tokens: Json = {};
      if (service === 'device-service') {
        for (const kind of ['device', 'server'] as const) {
          numbers[kind] = await device.register(kind, uniqueNo(`ans-${kind}`), SECRET);
          tokens[kind] = await device.token(kind, numbers[kind], SECRET);
        }
      }
      const saved = new Map<string, string>();
      let batchId = 'V1StGXR8Z5jdHi6BmyTbc';
      const problems: Json[] = [];
      let checked = 0;

      const check = async (label: string, op: Json, call: Call, expected?: { status: number; error: string }): Promise<Answer> => {
        const answer = await send(app(), call);
        const schema = responseSchema(doc, op, answer.http);
        checked++;
        const validator = schema && validate(schema);
        if (!validator) problems.push({ label, http: answer.http, problem: 'no documented response for this HTTP status' });
        else if (!validator(answer.body as unknown as Json[]))
          problems.push({ label, http: answer.http, status: answer.body.status, errors: validator.errors?.slice(0, 3), body: answer.body });
        if (expected && (answer.body.status !== expected.status || answer.body.error !== expected.error))
          problems.push({ label, expected, answered: { status: answer.body.status, error: answer.body.error } });
        return answer;
      };

      for (const [path, item] of Object.entries(doc.paths as Json)) {
        for (const method of METHODS.filter((m) => item[m])) {
          const op = item[method];
          const segments = path.split('/');
          const [resource, name] = segments.slice(-2);
          const kind = path.includes('data-acquisition-server') ? 'server' : 'device';
          const idField = `${camel(resource)}Id`;
          const query: Record<string, string | string[]> = {};
          for (const p of (op.parameters ?? []).filter((x: Json) => x.in === 'query')) {
            const known: Json = {
              id: saved.get(resource) ?? 'missing0',
              ids: [saved.get(resource) ?? 'missing0', 'missing1'],
              batchId,
              token: tokens[kind],
              secret: SECRET,
              [numberParam(kind)]: numbers[kind],
            };
            query[p.name] = known[p.name] ?? p.example ?? p.schema?.example ?? 'x';
          }
          // the device token travels in query parameter `token` (security scheme deviceToken)
          if (op.security?.some((s: Json) => 'deviceToken' in s)) query.token = tokens[kind];
          const media = op.requestBody?.content?.['application/json'];
          const sample = media ? swaggerUiSample(doc, media.schema) : undefined;
          const call: Call = { method, path, query, authorization: op.security?.some((s: Json) => 'bearer' in s) ? admin : undefined };
          if (name === 'save' && sample && !Array.isArray(sample)) {
            const id = `ans${saved.size}x${segments.length}`;
            call.body = { ...(sample as Json), [idField]: id };
            saved.set(resource, id);
          } else if (name === 'updateById' && sample) call.body = { ...(sample as Json), [idField]: saved.get(resource), revision: 1 };
          else call.body = sample;

          const answer = await check(`${method} ${path}`, op, call);
          if (name === 'importList' && answer.body.extraData?.batchId) batchId = answer.body.extraData.batchId;
          if (name === 'getById') await check(`${method} ${path} (missing)`, op, { ...call, query: { id: 'missing0' } });
          if (call.authorization) await check(`${method} ${path} (no token)`, op, { ...call, authorization: undefined });

          const examples = (op.responses['200']?.content?.['application/json']?.examples ?? {}) as Json;
          for (const [key, example] of Object.entries(examples)) {
            const input = example['x-input'];
            if (!input) continue;
            const failing: Call = { ...call, query: { ...query }, body: sample };
            if (input.omitQuery) delete failing.query[input.omitQuery];
            if (input.repeatQuery) failing.query[input.repeatQuery] = [String(query[input.repeatQuery]), 'another'];
            if (input.set) failing.body = { ...(sample as Json), ...input.set };
            if (input.body !== undefined) failing.body = input.body;
            if (input.raw !== undefined) failing.raw = input.raw;
            await check(`${method} ${path} example ${key}`, op, failing, { status: example.value.status, error: example.value.error });
          }
        }
      }
      expect({ service, problems }).toEqual({ service, problems: [] });
      expect(checked).toBeGreaterThan(service === 'main-service' ? 1000 : 60);
    },
    budget(180_000),
  );
});
