/**
 * Every answer of every operation validates against the schema its document gives for that HTTP status,
 * with a validator that follows OpenAPI 3.0.3 to the letter (Ajv: `nullable` only widens its own `type`,
 * undeclared properties refused): the calls of the operation walk (success, found and not found, without
 * credentials, and each documented failure example, sent as its `x-input` says), a failure example's answer
 * also exactly the example's status and text.
 */
import Ajv, { ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { DeviceTestApp, startDeviceApp } from '../../support/device-app';
import type { Json } from '../../support/json';
import { deviceCredentials, sendCall, Visit, walkOperations } from '../../support/operation-walk';
import { startApp, TestApp } from '../../support/test-app';
import { budget } from '../../support/time-budget';

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
      const credentials = service === 'device-service' ? await deviceCredentials(device) : { numbers: {}, tokens: {} };
      const problems: Json[] = [];
      let checked = 0;

      const check: Visit = async (label, op, call, expected) => {
        const answer = await sendCall(app(), call);
        checked++;
        // a file (an export's CSV): its media type is documented for the status; its bytes have no JSON schema
        const mediaType = String(answer.headers['content-type'] ?? '').split(';')[0];
        if (answer.http === 200 && mediaType && !/json/.test(mediaType)) {
          if (!op.responses['200']?.content?.[mediaType]) problems.push({ label, mediaType, problem: 'an undocumented media type' });
          return answer;
        }
        const schema = responseSchema(doc, op, answer.http);
        const validator = schema && validate(schema);
        if (!validator) problems.push({ label, http: answer.http, problem: 'no documented response for this HTTP status' });
        else if (!validator(answer.body as unknown as Json[]))
          problems.push({ label, http: answer.http, status: answer.body.status, errors: validator.errors?.slice(0, 3), body: answer.body });
        if (expected && (answer.body.status !== expected.status || answer.body.error !== expected.error))
          problems.push({ label, expected, answered: { status: answer.body.status, error: answer.body.error } });
        return answer;
      };
      await walkOperations(doc, admin, credentials, check);
      expect({ service, problems }).toEqual({ service, problems: [] });
      expect(checked).toBeGreaterThan(service === 'main-service' ? 1000 : 60);
    },
    budget(180_000),
  );
});
