/**
 * Bodies that would stall a process reading them (small compressed bodies that inflate to millions of
 * values, objects of many keys, rows of many shapes), and the refusals a service answers before reading a
 * body: shared by test/e2e/http-edges/body-bombs.ts (the answers) and test/timing/body-bombs.spec.ts (the
 * event loop stays free meanwhile).
 */
import { request } from 'node:http';
import { gzipSync } from 'node:zlib';
import { DEVICE_API, DeviceTestApp, REGISTRY, SECRET, SERVER_API, startDeviceApp, uniqueNo } from './device-app';
import { CONFIG, Envelope, startApp, TestApp } from './test-app';

export const MB = 1024 * 1024;

/** `[[],[],...]` of `count` empty arrays. */
export const emptyArrays = (count: number): Buffer => Buffer.from(`[${'[],'.repeat(count - 1)}[]]`);

/** 16 MB of `[[],[],...]`, gzip-compressed: what the attack sent. */
export const BOMB = gzipSync(emptyArrays(Math.floor((16 * MB) / 3)), { level: 9 });

/** Compact JSON text of one object with `count` distinct keys, `{"k0":0,"k1":1,...}`: class-transformer's time grows with their square. */
export const objectWithKeys = (count: number): string => `{${Array.from({ length: count }, (_, i) => `"k${i}":${i}`).join(',')}}`;

/** A generator of numbers in [0, 1), the same run after run (mulberry32). */
function seeded(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * JSON text of data-dictionary import rows whose keys, three unknown ones beside six real fields (a client
 * sending whole records back), come in a different order in nearly every row. Each order is a new object
 * shape to JSON.parse: parsed in one go, 45,000 such rows held the event loop for half a second to a second.
 */
export function shuffledRows(count: number, label: string): string {
  const random = seeded(count);
  const rows: string[] = [];
  for (let i = 0; i < count; i++) {
    const fields = [
      `"dataDictionaryTypeCode":"${label}"`,
      `"dataDictionaryCode":"c${i}"`,
      `"value":"v${i}"`,
      `"name":"n${i}"`,
      `"sort":${i % 100}`,
      `"remark":"r"`,
      `"id":${i}`,
      `"createdTime":${i}`,
      `"updatedBy":"u"`,
    ];
    for (let j = fields.length - 1; j > 0; j--) {
      const k = Math.floor(random() * (j + 1));
      [fields[j], fields[k]] = [fields[k], fields[j]];
    }
    rows.push(`{${fields.join(',')}}`);
  }
  return `[${rows.join(',')}]`;
}

/** JSON text of `count` rows of `keys` keys each, no key name used twice in the body (`{"r0k0":0,...},{"r1k0":0,...}`). */
export const rowsOfDistinctKeys = (count: number, keys: number): string =>
  `[${Array.from({ length: count }, (_, r) => `{${Array.from({ length: keys }, (_, k) => `"r${r}k${k}":0`).join(',')}}`).join(',')}]`;

/** Headers of a body sent as it is (send's default is gzip). */
export const UNCOMPRESSED = { 'Content-Encoding': 'identity' };

/** Sends a body as given (compressed: Content-Encoding gzip unless `headers` say UNCOMPRESSED); resolves to the envelope and the HTTP status. */
export function send(
  base: string,
  path: string,
  body: Buffer,
  headers: Record<string, string> = {},
  method: 'POST' | 'PUT' = 'POST',
): Promise<Envelope> {
  return new Promise((resolve, reject) => {
    const req = request(
      `${base}${path}`,
      {
        method,
        agent: false,
        headers: { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip', 'Content-Length': body.length, ...headers },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ ...JSON.parse(Buffer.concat(chunks).toString('utf8')), httpStatus: res.statusCode }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * Announces a 10 MB body, sends its first KiB and no more; resolves to the answer, which must come while
 * the rest of the body is still outstanding (the request is dropped once answered). A server waiting for
 * the body never answers, or answers 408 once its request timeout passes: no clock is needed to tell.
 */
export function answerBeforeBody(base: string, path: string, headers: Record<string, string> = {}): Promise<Envelope> {
  return new Promise((resolve, reject) => {
    const req = request(`${base}${path}`, {
      method: 'POST',
      agent: false,
      headers: { 'Content-Type': 'application/json', 'Content-Length': 10 * MB, ...headers },
    });
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        req.destroy();
        resolve({ ...JSON.parse(Buffer.concat(chunks).toString('utf8')), httpStatus: res.statusCode });
      });
    });
    req.on('error', (error) => (req.destroyed ? undefined : reject(error)));
    req.write(Buffer.alloc(1024, '['));
  });
}

/** A refusal the service answers before reading the body: where, with which headers, and what it answers. */
export interface Refusal {
  name: string;
  path: string;
  headers?: Record<string, string>;
  http: number;
}

export const SERVICES: { name: string; prefix: string; start: () => Promise<TestApp>; refusals: Refusal[] }[] = [
  {
    name: 'main-service',
    prefix: '/main-service',
    start: () => startApp(),
    refusals: [
      { name: 'unknown route', path: '/main-service/no-such-route', http: 404 },
      { name: 'import without a token', path: `${CONFIG}/data-dictionary/importList`, http: 401 },
      {
        name: 'save with an invalid token',
        path: `${CONFIG}/data-dictionary/save`,
        headers: { Authorization: 'Bearer not.a.token' },
        http: 401,
      },
    ],
  },
  {
    name: 'device-service',
    prefix: '/device-service',
    start: () => startDeviceApp(),
    refusals: [
      { name: 'unknown route', path: '/device-service/no-such-route', http: 404 },
      { name: 'registry save without a token', path: `${REGISTRY}/data-acquisition-device/save`, http: 401 },
      {
        name: 'registry save with an invalid token',
        path: `${REGISTRY}/data-acquisition-device/save`,
        headers: { Authorization: 'Bearer not.a.token' },
        http: 401,
      },
      {
        name: 'device call without a token',
        path: `${DEVICE_API}/pushInfoByDataAcquisitionDeviceNo?dataAcquisitionDeviceNo=DAD-1`,
        http: 401,
      },
      {
        name: 'device call with an invalid token',
        path: `${DEVICE_API}/pushInfoByDataAcquisitionDeviceNo?dataAcquisitionDeviceNo=DAD-1&token=not.a.token`,
        http: 401,
      },
    ],
  },
];

/** A body call of device-service with its credentials: a registered device's or server's own token in the query. */
export interface DeviceBodyCall {
  path: string;
  query: string;
  method: 'POST' | 'PUT';
}

/** pushInfo of a newly registered device and updateInternalIp of a new server: the device calls that take an object body. */
export async function deviceBodyCalls(t: DeviceTestApp, label: string): Promise<DeviceBodyCall[]> {
  const device = await t.register('device', uniqueNo(label), SECRET);
  const server = await t.register('server', uniqueNo(label), SECRET);
  return [
    {
      path: `${DEVICE_API}/pushInfoByDataAcquisitionDeviceNo`,
      query: `dataAcquisitionDeviceNo=${device}&token=${await t.token('device', device, SECRET)}`,
      method: 'POST',
    },
    {
      path: `${SERVER_API}/updateInternalIpByDataAcquisitionServerNo`,
      query: `dataAcquisitionServerNo=${server}&token=${await t.token('server', server, SECRET)}`,
      method: 'PUT',
    },
  ];
}
