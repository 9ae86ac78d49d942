/**
 * Device-group authentication (contract.md "Devices"): token keys from number + secret,
 * bound to number, kind and tenant, expiring; every other device call checks its `token`; failed
 * secret attempts are throttled per number (docs/decisions.md).
 */
import { decode } from 'jsonwebtoken';
import { bearer } from '../../support/tokens';
import {
  DEVICE_API,
  DeviceTestApp,
  Kind,
  numberParam,
  registryPath,
  SECRET,
  SERVER_API,
  signDeviceToken,
  startDeviceApp,
  tokenPath,
  uniqueNo,
} from '../../support/device-app';
import { fakeClock } from '../../support/fake-clock';

const KINDS: Kind[] = ['device', 'server'];

const TTL_SECONDS = 3600;

/** One token-checked call per kind: the device's own record, the server's own record. */
const ownRecordCall = (t: DeviceTestApp, kind: Kind, no: string, token?: string) =>
  kind === 'device'
    ? t.call('get', `${DEVICE_API}/getByDataAcquisitionDeviceNo`, { dataAcquisitionDeviceNo: no, token })
    : t.call('post', `${SERVER_API}/listByDataAcquisitionServerNo`, { dataAcquisitionServerNo: no, token });

describe('device tokens', () => {
  let t: DeviceTestApp;
  beforeAll(async () => (t = await startDeviceApp({ DEVICE_TOKEN_TTL_SECONDS: String(TTL_SECONDS) })));
  afterAll(() => t?.close());

  describe.each(KINDS)('%s token key', (kind) => {
    it('issues {token, expiresAt} for the right number and secret, valid for DEVICE_TOKEN_TTL_SECONDS', async () => {
      const no = await t.register(kind, uniqueNo(kind), SECRET);
      const before = Date.now();
      const res = await t.tokenKey(kind, no, SECRET);
      expect(res).toMatchObject({ httpStatus: 200, status: 200, error: null });
      expect(Object.keys(res.data).sort()).toEqual(['expiresAt', 'token']);
      expect(typeof res.data.token).toBe('string');
      // expiresAt is whole seconds (JWT exp) TTL after issue
      expect(res.data.expiresAt).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000 + TTL_SECONDS * 1000);
      expect(res.data.expiresAt).toBeLessThanOrEqual(Date.now() + TTL_SECONDS * 1000);
      const own = await ownRecordCall(t, kind, no, res.data.token);
      expect(own).toMatchObject({ httpStatus: 200, status: 200 });
    });

    it('refuses a wrong secret and an unknown number alike with 401', async () => {
      const no = await t.register(kind, uniqueNo(kind), SECRET);
      for (const [n, s] of [
        [no, 'wrong-secret-of-some-length'],
        [uniqueNo('unknown'), SECRET],
        [no, SECRET.toUpperCase()],
      ]) {
        const res = await t.tokenKey(kind, n, s);
        expect({ http: res.httpStatus, status: res.status, data: res.data }).toEqual({ http: 401, status: 401, data: null });
      }
    });

    it('needs both the number and the secret (1002 when missing)', async () => {
      const no = await t.register(kind, uniqueNo(kind), SECRET);
      const path =
        kind === 'device'
          ? `${DEVICE_API}/getGenerationTokenKeyByDataAcquisitionDeviceNo`
          : `${SERVER_API}/getGenerationTokenKeyByDataAcquisitionServerNo`;
      expect((await t.call('get', path, { [numberParam(kind)]: no })).status).toBe(1002);
      expect((await t.call('get', path, { secret: SECRET })).status).toBe(1002);
    });

    it('refuses a malformed number or an overlong secret as bad input (400) before checking anything', async () => {
      const no = await t.register(kind, uniqueNo(kind), SECRET);
      for (const [n, s, field] of [
        ['n'.repeat(65), SECRET, numberParam(kind)],
        ['bad number', SECRET, numberParam(kind)],
        [no, `${SECRET}${'x'.repeat(128)}`, 'secret'],
      ]) {
        const res = await t.tokenKey(kind, n, s);
        expect({ http: res.httpStatus, status: res.status }).toEqual({ http: 200, status: 400 });
        expect(res.error).toContain(field);
        expect(res.error).not.toContain(SECRET);
      }
      expect((await t.tokenKey(kind, no, SECRET)).status).toBe(200);
    });

    it('refuses calls without a token, with a malformed, forged or expired token, or with a Bearer token (401)', async () => {
      const no = await t.register(kind, uniqueNo(kind), SECRET);
      // the claims of a real token (kind, tenant, record, secret fingerprint), re-signed in bad ways
      const { sub, aud, iat, exp, ...claims } = decode(await t.token(kind, no, SECRET)) as Record<string, unknown>;
      expect({ sub, aud, iat: typeof iat, exp: typeof exp }).toEqual({ sub: no, aud: 'device-service', iat: 'number', exp: 'number' });
      const without = (name: string) => Object.fromEntries(Object.entries(claims).filter(([k]) => k !== name));
      const tokens = [
        undefined,
        '',
        'not-a-token',
        signDeviceToken(claims, { subject: no, secret: 'some-other-secret-of-16-chars' }),
        signDeviceToken(claims, { subject: no, expiresIn: -10 }),
        signDeviceToken(claims, { subject: no, audience: 'main-service', expiresIn: 600 }),
        ...Object.keys(claims).map((name) => signDeviceToken(without(name), { subject: no, expiresIn: 600 })), // each claim missing
        bearer().replace(/^Bearer /, ''),
      ];
      for (const token of tokens) {
        const res = await ownRecordCall(t, kind, no, token);
        expect({ token: token?.slice(0, 20), http: res.httpStatus, status: res.status, data: res.data }).toEqual({
          token: token?.slice(0, 20),
          http: 401,
          status: 401,
          data: null,
        });
      }
      // the same claims, correctly signed and unexpired, pass: the refusals above are the token's fault
      expect((await ownRecordCall(t, kind, no, signDeviceToken(claims, { subject: no, expiresIn: 600 }))).status).toBe(200);
    });

    it("a token can't act for another number (403)", async () => {
      const mine = await t.register(kind, uniqueNo(kind), SECRET);
      const other = await t.register(kind, uniqueNo(kind), SECRET);
      const token = await t.token(kind, mine, SECRET);
      const res = await ownRecordCall(t, kind, other, token);
      expect({ http: res.httpStatus, status: res.status, data: res.data }).toEqual({ http: 403, status: 403, data: null });
    });

    it('a token stops working when its record is deleted, and is not carried over to a re-registration in another tenant', async () => {
      const no = await t.register(kind, uniqueNo(kind), SECRET);
      const token = await t.token(kind, no, SECRET);
      const [record] = (await t.post(`${registryPath(kind)}/list`, { [numberParam(kind)]: no })).data;
      expect(
        (await t.del(`${registryPath(kind)}/removeById?id=${record[`dataAcquisition${kind === 'device' ? 'Device' : 'Server'}Id`]}`)).data,
      ).toBe(true);
      expect((await ownRecordCall(t, kind, no, token)).httpStatus).toBe(401);
      await t.register(kind, no, SECRET, { tenantId: 'tenant-b' });
      expect((await ownRecordCall(t, kind, no, token)).httpStatus).toBe(401);
      // a new token is bound to the new tenant
      const fresh = await t.token(kind, no, SECRET);
      expect((await ownRecordCall(t, kind, no, fresh)).status).toBe(200);
    });
  });

  it("a device token can't act as a server, nor a server token as a device, even with the same number (403)", async () => {
    const no = uniqueNo('shared');
    await t.register('device', no, SECRET);
    await t.register('server', no, SECRET);
    const deviceToken = await t.token('device', no, SECRET);
    const serverToken = await t.token('server', no, SECRET);
    expect((await ownRecordCall(t, 'server', no, deviceToken)).httpStatus).toBe(403);
    expect((await ownRecordCall(t, 'device', no, serverToken)).httpStatus).toBe(403);
    const lifecycles = await t.call('post', `${DEVICE_API}/listByDataAcquisitionServerNo`, {
      dataAcquisitionServerNo: no,
      token: deviceToken,
    });
    expect(lifecycles.httpStatus).toBe(403);
    const push = await t.call(
      'post',
      `${DEVICE_API}/pushInfoByDataAcquisitionDeviceNo`,
      { dataAcquisitionDeviceNo: no, token: serverToken },
      {},
    );
    expect(push.httpStatus).toBe(403);
    // each with its own kind passes
    expect((await ownRecordCall(t, 'server', no, serverToken)).status).toBe(200);
    expect((await ownRecordCall(t, 'device', no, deviceToken)).status).toBe(200);
  });

  it('a token carries the tenant it was issued for: a token claiming another tenant is refused (401)', async () => {
    const no = await t.register('device', uniqueNo('device'), SECRET);
    const { sub, aud, iat, exp, ...claims } = decode(await t.token('device', no, SECRET)) as Record<string, unknown>;
    const forgedTenant = signDeviceToken({ ...claims, tenantId: 'tenant-b' }, { subject: no, expiresIn: 600 });
    expect((await ownRecordCall(t, 'device', no, forgedTenant)).httpStatus).toBe(401);
  });
});

describe('device token expiry', () => {
  let t: DeviceTestApp;
  beforeAll(async () => (t = await startDeviceApp({ DEVICE_TOKEN_TTL_SECONDS: '60' })));
  afterAll(() => t?.close());
  afterEach(() => jest.useRealTimers());

  it('an issued token works until expiresAt and is refused from then on', async () => {
    const no = await t.register('device', uniqueNo('device'), SECRET);
    const clock = fakeClock();
    const key = (await t.tokenKey('device', no, SECRET)).data;
    expect(key.expiresAt - Date.now()).toBeLessThanOrEqual(60_000);
    expect(key.expiresAt - Date.now()).toBeGreaterThan(59_000);
    clock.advance(key.expiresAt - Date.now() - 1000);
    expect((await ownRecordCall(t, 'device', no, key.token)).status).toBe(200);
    clock.advance(1000);
    expect((await ownRecordCall(t, 'device', no, key.token)).httpStatus).toBe(401);
  });
});

describe('throttling of failed secret attempts', () => {
  let t: DeviceTestApp;
  const MAX_FAILURES = 3;
  const WINDOW_MS = 60_000;
  beforeAll(
    async () =>
      (t = await startDeviceApp({
        DEVICE_SECRET_MAX_FAILURES: String(MAX_FAILURES),
        DEVICE_SECRET_LOCKOUT_SECONDS: String(WINDOW_MS / 1000),
      })),
  );
  afterAll(() => t?.close());
  afterEach(() => jest.useRealTimers());

  it.each(KINDS)('locks a %s number after too many failures (429, even with the right secret) until the window passes', async (kind) => {
    const no = await t.register(kind, uniqueNo(kind), SECRET);
    const bystander = await t.register(kind, uniqueNo(kind), SECRET);
    const clock = fakeClock();
    for (let i = 0; i < MAX_FAILURES; i++) expect((await t.tokenKey(kind, no, `wrong-secret-number-${i}`)).httpStatus).toBe(401);
    const locked = await t.tokenKey(kind, no, SECRET);
    expect({ http: locked.httpStatus, status: locked.status, data: locked.data }).toEqual({ http: 429, status: 429, data: null });
    expect(locked.error).toEqual(expect.any(String));
    expect((await t.tokenKey(kind, no, 'wrong-again-during-lockout')).httpStatus).toBe(429);
    // the device is told when to retry: the rest of the window, in seconds
    const raw = await t
      .http()
      .get(tokenPath(kind))
      .query({ [numberParam(kind)]: no, secret: SECRET });
    expect(raw.status).toBe(429);
    expect(Number(raw.headers['retry-after'])).toBe(WINDOW_MS / 1000);
    // another number is not affected
    expect((await t.tokenKey(kind, bystander, SECRET)).status).toBe(200);
    // still locked just before the window (from the first failure) ends; the right secret works after it
    clock.advance(WINDOW_MS - 1);
    expect((await t.tokenKey(kind, no, SECRET)).httpStatus).toBe(429);
    clock.advance(1);
    expect((await t.tokenKey(kind, no, SECRET)).status).toBe(200);
  });

  it('unknown numbers are throttled the same way', async () => {
    const unknown = uniqueNo('unknown');
    for (let i = 0; i < MAX_FAILURES; i++) expect((await t.tokenKey('device', unknown, SECRET)).httpStatus).toBe(401);
    expect((await t.tokenKey('device', unknown, SECRET)).httpStatus).toBe(429);
  });

  it('a success forgets earlier failures', async () => {
    const no = await t.register('device', uniqueNo('device'), SECRET);
    for (let i = 0; i < MAX_FAILURES - 1; i++) expect((await t.tokenKey('device', no, 'wrong-secret-xxxxxxxx')).httpStatus).toBe(401);
    expect((await t.tokenKey('device', no, SECRET)).status).toBe(200);
    for (let i = 0; i < MAX_FAILURES - 1; i++) expect((await t.tokenKey('device', no, 'wrong-secret-xxxxxxxx')).httpStatus).toBe(401);
    expect((await t.tokenKey('device', no, SECRET)).status).toBe(200);
  });
});
