/**
 * FAST_PATHS=off runs the services on the libraries' public ways only: Express's router walking the app's stack,
 * Nest's interceptor chain, statements built on every call (fast-paths/fast-paths.ts lists them all). Every
 * operation must answer the same either way. Two apps of a service, one each way, walk every operation of the
 * service's document in the same order, each on a database of its own (test/support/operation-walk.ts: success,
 * missing, no token and every documented failure), and what the client, the request lines and /metrics saw must
 * be the same, values that differ by nature (times, generated ids and tokens) aside. class-validator's rule cache is
 * process-wide, so it serves both apps here; the CI leg with FAST_PATHS=off runs the whole suite without it.
 */
import { DeviceTestApp, startDeviceApp } from '../../support/device-app';
import type { Json } from '../../support/json';
import { LogCapture } from '../../support/observability';
import { Answer, Credentials, deviceCredentials, sendCall, walkOperations } from '../../support/operation-walk';
import { startApp, TestApp } from '../../support/test-app';
import { budget } from '../../support/time-budget';

const ISO_TIME = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}/;
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;
const JWT = /eyJ[\w-]+\.[\w-]+\.[\w-]+/g;
/** A generated record id (21 characters of nanoid's alphabet), alone or in a URL. */
const GENERATED_ID = /(?<![\w-])[\w-]{21}(?![\w-])/g;
/** Header values that differ by nature. */
const VOLATILE_HEADERS = ['date'];
/** Request-line fields that differ by nature. */
const VOLATILE_FIELDS = ['time', 'durationMs'];

interface Seen {
  label: string;
  http: number;
  headers: Json;
  body: Json;
}

interface Walk {
  answers: Seen[];
  lines: Json[];
  requestCounts: string[];
}

/** `value` with what differs by nature replaced by its kind: times, UUIDs, tokens, the app's own device numbers. */
function normalised(value: unknown, credentials: Credentials, key = ''): unknown {
  if (Array.isArray(value)) return value.map((v) => normalised(v, credentials));
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, normalised(v, credentials, k)]));
  if (typeof value === 'number' && /(Time|At|timestamp)$/i.test(key) && value > 1e12) return '<time>';
  if (typeof value !== 'string') return value;
  if (ISO_TIME.test(value)) return '<time>';
  let text = value.replace(UUID, '<uuid>').replace(JWT, '<jwt>').replace(GENERATED_ID, '<id>');
  for (const [kind, no] of Object.entries(credentials.numbers)) text = text.split(String(no)).join(`<${kind}-no>`);
  return text;
}

async function walkOnce(service: string, fastPaths: 'on' | 'off'): Promise<Walk> {
  const logs = new LogCapture();
  // no background delivery: it would change a saved message (its status, its revision) at a moment of its own
  const env = { FAST_PATHS: fastPaths, LOG_LEVEL: 'info', DISPATCH_ENABLED: 'false' };
  const device = service === 'device-service' ? await startDeviceApp(env, { logTo: logs }) : undefined;
  const app: TestApp = device ?? (await startApp(env, { logTo: logs }));
  try {
    const doc = (await app.http().get(`/${service}/v3/api-docs`)).body as Json;
    const credentials = device ? await deviceCredentials(device as DeviceTestApp) : { numbers: {}, tokens: {} };
    const answers: Seen[] = [];
    let count = 0;
    await walkOperations(doc, app.auth({ roles: ['administrator'] }), credentials, async (label, _op, call): Promise<Answer> => {
      const answer = await sendCall(app, call, { 'X-Request-Id': `walk-${++count}` });
      // an import is applied in the background: its status is asked once it is, in both runs alike
      if (label.endsWith('/importList') && !device) await app.drainOutbox();
      const headers = { ...answer.headers };
      for (const name of VOLATILE_HEADERS) delete headers[name];
      const { timestamp: _timestamp, ...body } = answer.body;
      answers.push({ label, http: answer.http, headers, body: normalised(body, credentials) as Json });
      return answer;
    });
    const metrics = await app.http().get(`/${service}/metrics`);
    const requestCounts = metrics.text.split('\n').filter((line) => line.startsWith('http_requests_total{'));
    const lines = logs.lines
      .filter((line) => String(line.requestId).startsWith('walk-') && line.route !== undefined)
      .map((line) => {
        for (const field of VOLATILE_FIELDS) delete line[field];
        return normalised(line, credentials) as Json;
      });
    return { answers, lines, requestCounts };
  } finally {
    await app.close();
  }
}

describe.each(['main-service', 'device-service'])('%s with the fast paths on and off', (service) => {
  it(
    'answers every operation, success and documented failure, with the same status, headers, envelope, request line and metrics',
    async () => {
      const on = await walkOnce(service, 'on');
      const off = await walkOnce(service, 'off');
      expect(on.answers.length).toBeGreaterThan(service === 'main-service' ? 1000 : 60);
      const differing = on.answers.filter((seen, i) => JSON.stringify(seen) !== JSON.stringify(off.answers[i]));
      expect(differing.slice(0, 3).map((seen) => ({ on: seen, off: off.answers[on.answers.indexOf(seen)] }))).toEqual([]);
      expect(off.answers.length).toBe(on.answers.length);
      expect(on.lines.length).toBe(on.answers.length);
      const lineDiffers = on.lines.filter((line, i) => JSON.stringify(line) !== JSON.stringify(off.lines[i]));
      expect(lineDiffers.slice(0, 3).map((line) => ({ on: line, off: off.lines[on.lines.indexOf(line)] }))).toEqual([]);
      expect(on.requestCounts.length).toBeGreaterThan(service === 'main-service' ? 500 : 50);
      expect(off.requestCounts).toEqual(on.requestCounts);
    },
    budget(240_000),
  );
});
