/**
 * Small compressed bodies that would stall a process reading them whole, and the refusals a service answers
 * before reading a body: shared by test/e2e/http-edges/body-bombs.ts (the answers) and
 * test/timing/body-bombs.spec.ts (the event loop stays free meanwhile).
 */
import { request } from 'node:http';
import { gzipSync } from 'node:zlib';
import { DEVICE_API, REGISTRY, startDeviceApp } from './device-app';
import { CONFIG, Envelope, startApp, TestApp } from './test-app';

export const MB = 1024 * 1024;

/** `[[],[],...]` of `count` empty arrays. */
export const emptyArrays = (count: number): Buffer => Buffer.from(`[${'[],'.repeat(count - 1)}[]]`);

/** 16 MB of `[[],[],...]`, gzip-compressed: what the attack sent. */
export const BOMB = gzipSync(emptyArrays(Math.floor((16 * MB) / 3)), { level: 9 });

/** Sends a body as given (compressed: Content-Encoding gzip); resolves to the envelope and the HTTP status. */
export function send(base: string, path: string, body: Buffer, headers: Record<string, string> = {}): Promise<Envelope> {
  return new Promise((resolve, reject) => {
    const req = request(
      `${base}${path}`,
      {
        method: 'POST',
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
