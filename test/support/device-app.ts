import request from 'supertest';
import { sign } from 'jsonwebtoken';
import { AppModule as DeviceAppModule } from '../../apps/device-service/src/app.module';
import { DEVICE_SERVICE } from '../../apps/device-service/src/device-service.manifest';
import { TestDatabase } from './database';
import { Envelope, startApp, StartOptions, TestApp } from './test-app';
import { Claims } from './tokens';

/**
 * device-service under test. Paths and parameter names come from the spec's device group and
 * contract.md "Devices", not from the application code.
 */
export const TEST_DEVICE_TOKEN_SECRET = 'test-device-token-secret-16+';

export const REGISTRY = '/device-service/system-api/device';
export const DEVICE_API = '/device-service/main-api/device/data-acquisition-device';
export const SERVER_API = '/device-service/main-api/device/data-acquisition-server';

export type Kind = 'device' | 'server';
export const numberParam = (kind: Kind) => (kind === 'device' ? 'dataAcquisitionDeviceNo' : 'dataAcquisitionServerNo');
export const registryPath = (kind: Kind) => `${REGISTRY}/data-acquisition-${kind}`;
export const tokenPath = (kind: Kind) =>
  kind === 'device'
    ? `${DEVICE_API}/getGenerationTokenKeyByDataAcquisitionDeviceNo`
    : `${SERVER_API}/getGenerationTokenKeyByDataAcquisitionServerNo`;

export interface DeviceTestApp extends TestApp {
  /** Registers a device or server (Bearer administrator of the tenant) and returns its number. */
  register: (kind: Kind, no: string, secret: string, claims?: Claims) => Promise<string>;
  /** The raw token-key response for a number and secret; `from`: the client address (sent as X-Forwarded-For by the trusted loopback proxy). */
  tokenKey: (kind: Kind, no: string, secret: string, from?: string) => Promise<Envelope & { retryAfter?: string }>;
  /** A token for a registered number (fails the test if refused). */
  token: (kind: Kind, no: string, secret: string) => Promise<string>;
  /** Calls a device-group path with query parameters (token, number, ...) and an optional JSON body. */
  call: (method: 'get' | 'post' | 'put', path: string, query: Record<string, string | undefined>, body?: unknown) => Promise<Envelope>;
}

let seq = 0;
/** Numbers unique per test file run (numbers are global across tenants). */
export const uniqueNo = (label: string): string => `${label}-${process.pid}-${++seq}`;
export const SECRET = 'provisioning-secret-0001';

/** A device token signed with the test secret, e.g. already expired or with other claims. */
export function signDeviceToken(
  payload: Record<string, unknown>,
  options: { subject: string; expiresIn?: number; secret?: string; audience?: string },
): string {
  return sign(payload, options.secret ?? TEST_DEVICE_TOKEN_SECRET, {
    algorithm: 'HS256',
    subject: options.subject,
    audience: options.audience ?? 'device-service',
    ...(options.expiresIn === undefined ? {} : { expiresIn: options.expiresIn }),
  });
}

/**
 * device-service on a fresh database (or on `options.shared`). Token calls per client address are not
 * limited in practice unless `env` sets DEVICE_TOKEN_RATE_LIMIT: every test call comes from one address.
 */
export async function startDeviceApp(
  env: Record<string, string> = {},
  options: StartOptions & { shared?: TestDatabase } = {},
): Promise<DeviceTestApp> {
  const t = await startApp(
    { DEVICE_TOKEN_SECRET: TEST_DEVICE_TOKEN_SECRET, DEVICE_TOKEN_RATE_LIMIT: '100000', ...env },
    { ...options, target: { module: DeviceAppModule, service: DEVICE_SERVICE } },
  );
  const envelope = (res: request.Response): Envelope => ({ ...res.body, httpStatus: res.status });
  const call: DeviceTestApp['call'] = async (method, path, query, body) => {
    const defined = Object.fromEntries(Object.entries(query).filter(([, v]) => v !== undefined)) as Record<string, string>;
    const req = t.http()[method](path).query(defined);
    return envelope(await (body === undefined ? req : req.send(body as object)));
  };
  const tokenKey: DeviceTestApp['tokenKey'] = async (kind, no, secret, from) => {
    const req = t
      .http()
      .get(tokenPath(kind))
      .query({ [numberParam(kind)]: no, secret });
    const res = await (from ? req.set('X-Forwarded-For', from) : req);
    return { ...envelope(res), retryAfter: res.headers['retry-after'] as string | undefined };
  };
  return {
    ...t,
    call,
    tokenKey,
    register: async (kind, no, secret, claims) => {
      const res = await t.post(`${registryPath(kind)}/save`, { [numberParam(kind)]: no, name: `${kind} ${no}`, secret }, claims);
      expect({ status: res.status, error: res.error }).toEqual({ status: 200, error: null });
      return no;
    },
    token: async (kind, no, secret) => {
      const res = await tokenKey(kind, no, secret);
      expect({ status: res.status, error: res.error }).toEqual({ status: 200, error: null });
      return res.data.token as string;
    },
  };
}

// the device suites' replicas share a database the same way as main-service's
export { createSharedDatabase } from './database';
