/**
 * One walk over every operation of a service's OpenAPI document: each operation's success (a save gets an id
 * of its own, an update the id saved before), getById of a missing record, the call without its token, and every
 * documented failure example sent as its `x-input` says. The answers-against-schema test walks it.
 */
import { DeviceTestApp, numberParam, SECRET, uniqueNo } from './device-app';
import type { Json } from './json';
import { swaggerUiSample } from './openapi-walk';
import type { TestApp } from './test-app';

const METHODS = ['get', 'post', 'put', 'delete'] as const;
const camel = (kebab: string) => kebab.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());

export interface Call {
  method: (typeof METHODS)[number];
  path: string;
  query: Record<string, string | string[]>;
  body?: unknown;
  raw?: string;
  authorization?: string;
}

export interface Answer {
  http: number;
  headers: Record<string, string>;
  body: Json;
}

/** What a documented failure example says the answer is. */
export interface Expected {
  status: number;
  error: string;
}

/** Sends a call and returns its answer; `label` names the call, `op` is its operation in the document. */
export type Visit = (label: string, op: Json, call: Call, expected?: Expected) => Promise<Answer>;

/** The device and server numbers and device tokens a walk of device-service needs (none for main-service). */
export interface Credentials {
  numbers: Json;
  tokens: Json;
}

/** Sends `call` to the app, with `headers` besides its own. */
export async function sendCall(app: TestApp, call: Call, headers: Record<string, string> = {}): Promise<Answer> {
  let req = app.http()[call.method](call.path).query(call.query).set(headers);
  if (call.authorization) req = req.set('Authorization', call.authorization);
  if (call.raw !== undefined) req = req.set('Content-Type', 'application/json').send(call.raw);
  else if (call.body !== undefined) req = req.send(call.body as object);
  const res = await req;
  return { http: res.status, headers: res.headers as Record<string, string>, body: res.body as Json };
}

/** Registers a device and a server on `device` and issues their tokens. */
export async function deviceCredentials(device: DeviceTestApp): Promise<Credentials> {
  const numbers: Json = {};
  const tokens: Json = {};
  for (const kind of ['device', 'server'] as const) {
    numbers[kind] = await device.register(kind, uniqueNo(`walk-${kind}`), SECRET);
    tokens[kind] = await device.token(kind, numbers[kind], SECRET);
  }
  return { numbers, tokens };
}

/** Visits every call of the walk, in the document's order; `admin` is an administrator's Authorization header. */
export async function walkOperations(doc: Json, admin: string, { numbers, tokens }: Credentials, visit: Visit): Promise<void> {
  const saved = new Map<string, string>();
  let batchId = 'V1StGXR8Z5jdHi6BmyTbc';
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
      // path parameters as their examples (a namespace's `/` encoded)
      const filled = ((op.parameters ?? []) as Json[])
        .filter((p) => p.in === 'path')
        .reduce((at, p) => at.replace(`{${p.name}}`, encodeURIComponent(String(p.example ?? p.schema?.example ?? 'x'))), path);
      const call: Call = { method, path: filled, query, authorization: op.security?.some((s: Json) => 'bearer' in s) ? admin : undefined };
      if (name === 'save' && sample && !Array.isArray(sample)) {
        const id = `ans${saved.size}x${segments.length}`;
        call.body = { ...(sample as Json), [idField]: id };
        saved.set(resource, id);
      } else if (name === 'updateById' && sample) call.body = { ...(sample as Json), [idField]: saved.get(resource), revision: 1 };
      else call.body = sample;

      const answer = await visit(`${method} ${path}`, op, call);
      if (name === 'importList' && answer.body.extraData?.batchId) batchId = answer.body.extraData.batchId;
      if (name === 'getById') await visit(`${method} ${path} (missing)`, op, { ...call, query: { id: 'missing0' } });
      if (call.authorization) await visit(`${method} ${path} (no token)`, op, { ...call, authorization: undefined });

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
        await visit(`${method} ${path} example ${key}`, op, failing, { status: example.value.status, error: example.value.error });
      }
    }
  }
}
