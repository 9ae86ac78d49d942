/**
 * Null means "not given": a sweep generated from both OpenAPI documents. For every POST/PUT operation
 * with a JSON body, a valid body (table rows of test/support/tables, else the schema's examples) is sent
 * as is, with each optional property null one at a time, and with all of them null at once. Never a
 * 5xx; writes that succeed with the valid body succeed with the nulls too; an asynchronous import
 * ends APPLIED, never FAILED.
 */
import { DeviceTestApp, SECRET, startDeviceApp, uniqueNo } from '../../support/device-app';
import { JsonOperation, jsonOperations } from '../../support/openapi-walk';
import { ALL_RESOURCES } from '../../support/tables';
import { Envelope, startApp, TestApp } from '../../support/test-app';
import type { Json } from '../../support/json';

let counter = 0;
const seed = (): string => `n${String(++counter).padStart(4, '0')}`;
/** A client-chosen identifier ([0-9A-Za-z], at most 32). */
const clientId = (): string => `nullsweep${process.pid}x${++counter}`;

/** The schema's example (the body Swagger UI would build): the whole body's, else each property's. */
const fromExamples = (op: JsonOperation): Json =>
  op.example
    ? { ...op.example }
    : Object.fromEntries(
        Object.entries(op.schema.properties)
          .filter(([, p]) => p.example !== undefined)
          .map(([k, p]) => [k, p.example]),
      );

/** Operations whose body (or row) is a record of the resource, as the table rows give it. */
const RECORD_BODIES = ['save', 'saveOrUpdate', 'saveBatch', 'importList', 'updateById'];

/** A prepared request: where to send it, its body, and what a success must show. */
interface Prepared {
  url: string;
  body: Json | Json[];
  /** Extra check after a 200 (e.g. the asynchronous batch's outcome); returns a failure text or undefined. */
  after?: (res: Envelope) => Promise<string | undefined>;
}

/** What a sweep needs of a running service. */
interface Service {
  app: TestApp;
  /** A fresh valid save body of a resource (unique keys). */
  sample: (op: JsonOperation) => Json;
  /** The identifier property of a resource. */
  idField: (resource: string) => string;
  /** Query parameters an operation needs besides its body (device tokens, ns/lng). */
  query: (op: JsonOperation) => Promise<Record<string, string>>;
}

const optionalOf = (op: JsonOperation, s: Service): string[] =>
  Object.keys(op.schema.properties).filter(
    (k) => !op.schema.required.includes(k) && !(op.op === 'updateById' && k === s.idField(op.resource)),
  );

async function prepare(op: JsonOperation, s: Service): Promise<Prepared> {
  const q = new URLSearchParams(await s.query(op)).toString();
  const url = q ? `${op.path}?${q}` : op.path;
  const collection = op.path.slice(0, op.path.length - op.op.length - 1);
  switch (op.op) {
    case 'count':
    case 'list':
    case 'listCache':
    case 'export':
      return { url, body: {} };
    case 'page':
      return { url, body: { current: 1, pageSize: 10 } };
    case 'updateById': {
      const id = clientId();
      const values = s.sample(op);
      const saved = await s.app.post(`${collection}/save`, { ...values, [s.idField(op.resource)]: id });
      if (saved.status !== 200) throw new Error(`${collection}/save of the record to update: ${saved.status} ${saved.error}`);
      return { url, body: { ...values, [s.idField(op.resource)]: id, revision: 1 } };
    }
    default:
      if (!op.arrayBody) return { url, body: s.sample(op) };
      return {
        url,
        body: [s.sample(op)],
        after: async (res) => {
          if (!res.extraData?.batchId) return undefined;
          await s.app.drainOutbox();
          const outcome = await s.app.get(`${collection}/importStatus?batchId=${encodeURIComponent(res.extraData.batchId)}`);
          return outcome.data?.status === 'APPLIED' ? undefined : `batch ended ${JSON.stringify(outcome.data)}`;
        },
      };
  }
}

/** Sends one variant; returns a failure text, or undefined when the answer is as required. */
async function attempt(op: JsonOperation, s: Service, nulls: string[]): Promise<string | undefined> {
  const { url, body, after } = await prepare(op, s);
  for (const row of Array.isArray(body) ? body : [body]) for (const k of nulls) row[k] = null;
  const http = s.app.http()[op.method](url).set('Authorization', s.app.auth());
  const raw = await http.send(body);
  // a file (export) is no envelope: served whole is the answer required
  if (String(raw.headers['content-disposition'] ?? '').startsWith('attachment'))
    return raw.status === 200 ? undefined : `HTTP ${raw.status}`;
  const res: Envelope = { ...raw.body, httpStatus: raw.status };
  if (res.httpStatus >= 500 || res.status === 500) return `HTTP ${res.httpStatus}, status ${res.status}`;
  if (res.status !== 200) return `status ${res.status}: ${res.error}`;
  if (['save', 'updateById'].includes(op.op) && res.data !== true) return `data ${JSON.stringify(res.data)}`;
  return after?.(res);
}

/** Every variant of every operation of one document; the failures, one line each. */
async function sweep(ops: JsonOperation[], s: Service): Promise<string[]> {
  const failures: string[] = [];
  for (const op of ops) {
    const optional = optionalOf(op, s);
    const variants: [string, string[]][] = [
      ['valid body', []],
      ...optional.map((k): [string, string[]] => [`${k}: null`, [k]]),
      ['all optional null', optional],
    ];
    for (const [label, nulls] of variants) {
      const failure = await attempt(op, s, nulls);
      if (failure) failures.push(`${op.method.toUpperCase()} ${op.path} with ${label}: ${failure}`);
    }
  }
  return failures;
}

const LONG = 300_000;

describe('null sweep, main-service', () => {
  let t: TestApp;
  let ops: JsonOperation[];
  beforeAll(async () => {
    t = await startApp();
    ops = jsonOperations((await t.http().get('/main-service/v3/api-docs')).body);
  });
  afterAll(() => t?.close());

  const service = (): Service => ({
    app: t,
    sample: (op) => {
      const table = RECORD_BODIES.includes(op.op) && ALL_RESOURCES.find((r) => r.segment === op.resource);
      return table ? table.sample(seed()) : fromExamples(op);
    },
    idField: (resource) => ALL_RESOURCES.find((r) => r.segment === resource)?.idField ?? '',
    query: async (op) => Object.fromEntries(op.query.map((name) => [name, name === 'lng' ? 'en' : 'common'])),
  });

  it('the document lists the write operations the sweep must cover', () => {
    const names = new Set(ops.map((op) => op.op));
    for (const op of ['save', 'updateById', 'count', 'list', 'page', 'listCache', 'saveOrUpdate', 'saveBatch', 'importList', 'saveMissing'])
      expect(names).toContain(op);
  });

  for (const group of ['configuration', 'message', 'snapshot'])
    it(
      `${group}: every optional property null, one at a time and all at once → never a 5xx, writes succeed, batches end APPLIED`,
      async () => {
        const mine = ops.filter((op) => op.path.includes(`/${group}/`));
        expect(mine.length).toBeGreaterThan(0);
        expect(await sweep(mine, service())).toEqual([]);
      },
      LONG,
    );
});

describe('null sweep, device-service', () => {
  let t: DeviceTestApp;
  let ops: JsonOperation[];
  let device: string;
  let server: string;
  const tokens: Record<string, string> = {};
  beforeAll(async () => {
    t = await startDeviceApp();
    ops = jsonOperations((await t.http().get('/device-service/v3/api-docs')).body);
    device = await t.register('device', uniqueNo('nsd'), SECRET);
    server = await t.register('server', uniqueNo('nss'), SECRET);
    tokens.device = await t.token('device', device, SECRET);
    tokens.server = await t.token('server', server, SECRET);
  });
  afterAll(() => t?.close());

  const kindOf = (resource: string) => (resource === 'data-acquisition-server' ? 'server' : 'device');
  const service = (): Service => ({
    app: t,
    sample: (op) => {
      const kind = kindOf(op.resource);
      if (op.op === 'save' || op.op === 'updateById')
        return {
          [`dataAcquisition${kind === 'device' ? 'Device' : 'Server'}No`]: uniqueNo(`ns${kind[0]}`),
          name: `null sweep ${seed()}`,
          remark: 'r',
          secret: SECRET,
        };
      const body = fromExamples(op);
      if ('dataAcquisitionServerNo' in body) body.dataAcquisitionServerNo = server; // a server of the caller's tenant
      return body;
    },
    idField: (resource) => (kindOf(resource) === 'device' ? 'dataAcquisitionDeviceId' : 'dataAcquisitionServerId'),
    query: async (op): Promise<Record<string, string>> => {
      if (!op.path.includes('/main-api/')) return {};
      const kind = kindOf(op.resource);
      return {
        [kind === 'device' ? 'dataAcquisitionDeviceNo' : 'dataAcquisitionServerNo']: kind === 'device' ? device : server,
        token: tokens[kind],
      };
    },
  });

  it(
    'registry and device calls: every optional property null, one at a time and all at once → never a 5xx, writes succeed',
    async () => {
      const names = new Set(ops.map((op) => op.op));
      for (const op of ['save', 'updateById', 'pushInfoByDataAcquisitionDeviceNo', 'updateInternalIpByDataAcquisitionServerNo'])
        expect(names).toContain(op);
      expect(await sweep(ops, service())).toEqual([]);
    },
    LONG,
  );
});
