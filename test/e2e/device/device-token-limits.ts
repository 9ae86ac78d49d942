/**
 * The anonymous token calls are limited per client address (DEVICE_TOKEN_RATE_LIMIT calls a minute;
 * the address is `request.ip` under TRUST_PROXY, here X-Forwarded-For from the trusted loopback) as
 * well as per number and client address (DEVICE_SECRET_MAX_FAILURES: a stranger's failures lock the
 * number for the stranger only), with the counters in the database: two app instances on one database
 * (replicas) share them.
 */
import { randomBytes } from 'node:crypto';
import { TestDatabase } from '../../support/database';
import { createSharedDatabase, DeviceTestApp, SECRET, startDeviceApp, uniqueNo } from '../../support/device-app';
import { fakeClock } from '../../support/fake-clock';

const LIMIT = 30;
const MAX_FAILURES = 3;
const randomNo = () => `random-${randomBytes(6).toString('hex')}`;
let addressSeq = 0;
/** A client address of its own per use (TEST-NET-3), so each test starts from a zero count. */
const newAddress = () => `203.0.113.${++addressSeq}`;

const outcome = (res: { httpStatus: number; status: number; data: unknown }) => ({
  http: res.httpStatus,
  status: res.status,
  data: res.data,
});
const UNAUTHORIZED = { http: 401, status: 401, data: null };
const LIMITED = { http: 429, status: 429, data: null };

describe('token calls per client address', () => {
  let t: DeviceTestApp;
  beforeAll(
    async () => (t = await startDeviceApp({ DEVICE_TOKEN_RATE_LIMIT: String(LIMIT), DEVICE_SECRET_MAX_FAILURES: String(MAX_FAILURES) })),
  );
  afterAll(() => t?.close());
  afterEach(() => jest.useRealTimers());

  it('40 guesses with random numbers from one address: 429 with Retry-After after the limit', async () => {
    const from = newAddress();
    const results = [];
    for (let i = 0; i < 40; i++) results.push(await t.tokenKey('device', randomNo(), SECRET, from));
    expect(results.slice(0, LIMIT).map(outcome)).toEqual(new Array(LIMIT).fill(UNAUTHORIZED));
    expect(results.slice(LIMIT).map(outcome)).toEqual(new Array(40 - LIMIT).fill(LIMITED));
    for (const res of results.slice(LIMIT)) {
      expect(Number(res.retryAfter)).toBeGreaterThanOrEqual(1);
      expect(Number(res.retryAfter)).toBeLessThanOrEqual(60);
    }
    // the right secret of a registered number is refused from that address too, and works from another
    const no = await t.register('device', uniqueNo('device'), SECRET);
    expect(outcome(await t.tokenKey('device', no, SECRET, from))).toEqual(LIMITED);
    expect((await t.tokenKey('device', no, SECRET, newAddress())).status).toBe(200);
  });

  it('a refused call checks no secret: it records no failure for its number', async () => {
    const from = newAddress();
    for (let i = 0; i < LIMIT; i++) await t.tokenKey('server', randomNo(), SECRET, from);
    const no = await t.register('server', uniqueNo('server'), SECRET);
    for (let i = 0; i < MAX_FAILURES + 2; i++)
      expect((await t.tokenKey('server', no, 'wrong-secret-while-limited', from)).httpStatus).toBe(429);
    // had those wrong secrets been checked, the number would be locked now
    expect((await t.tokenKey('server', no, SECRET, newAddress())).status).toBe(200);
  });

  it('counts device and server token calls together, and the window ends after a minute', async () => {
    const from = newAddress();
    const clock = fakeClock();
    for (let i = 0; i < LIMIT; i++) expect((await t.tokenKey(i % 2 ? 'device' : 'server', randomNo(), SECRET, from)).httpStatus).toBe(401);
    expect((await t.tokenKey('device', randomNo(), SECRET, from)).httpStatus).toBe(429);
    expect((await t.tokenKey('server', randomNo(), SECRET, from)).httpStatus).toBe(429);
    clock.advance(59_000);
    expect((await t.tokenKey('server', randomNo(), SECRET, from)).retryAfter).toBe('1');
    clock.advance(1_000);
    expect((await t.tokenKey('server', randomNo(), SECRET, from)).httpStatus).toBe(401);
  });

  it('counts an IPv6 client by its /64 network, and a made-up forwarded address as the proxy itself', async () => {
    for (let i = 0; i < LIMIT; i++) await t.tokenKey('device', randomNo(), SECRET, `2001:db8:${addressSeq}:7::${(i + 1).toString(16)}`);
    expect((await t.tokenKey('device', randomNo(), SECRET, `2001:db8:${addressSeq}:7:ffff::1`)).httpStatus).toBe(429);
    expect((await t.tokenKey('device', randomNo(), SECRET, `2001:db8:${addressSeq}:8::1`)).httpStatus).toBe(401);
    // not an address: counted as the socket peer (the loopback proxy), like calls without the header
    for (let i = 0; i < LIMIT; i++) await t.tokenKey('device', randomNo(), SECRET, i % 2 ? '<script>' : undefined);
    expect((await t.tokenKey('device', randomNo(), SECRET, `${'9'.repeat(300)}`)).httpStatus).toBe(429);
    expect((await t.tokenKey('device', randomNo(), SECRET)).httpStatus).toBe(429);
  });

  it("a stranger's wrong secrets lock the number for the stranger's address only, not for its owner", async () => {
    const no = await t.register('device', uniqueNo('device'), SECRET);
    const stranger = newAddress();
    for (let i = 0; i < MAX_FAILURES + 2; i++) await t.tokenKey('device', no, `wrong-secret-${i}-xxxxxxxx`, stranger);
    expect(outcome(await t.tokenKey('device', no, SECRET, stranger))).toEqual(LIMITED);
    // the owner, from another address, renews its token as usual; the stranger stays locked
    expect((await t.tokenKey('device', no, SECRET, newAddress())).status).toBe(200);
    expect(outcome(await t.tokenKey('device', no, SECRET, stranger))).toEqual(LIMITED);
  });

  it('an IPv6 stranger locks the number for its whole /64 only', async () => {
    const no = await t.register('server', uniqueNo('server'), SECRET);
    const net = `2001:db8:${(++addressSeq).toString(16)}`;
    for (let i = 0; i < MAX_FAILURES; i++)
      expect((await t.tokenKey('server', no, 'wrong-secret-xxxxxxxx', `${net}:1::${(i + 1).toString(16)}`)).httpStatus).toBe(401);
    expect(outcome(await t.tokenKey('server', no, SECRET, `${net}:1:ffff:ffff:ffff:ffff`))).toEqual(LIMITED);
    expect((await t.tokenKey('server', no, SECRET, `${net}:2::1`)).status).toBe(200);
  });

  it('ended windows are deleted (swept by a later token call)', async () => {
    const clock = fakeClock();
    const old = newAddress();
    await t.tokenKey('device', randomNo(), SECRET, old);
    const keys = async () =>
      ((await t.dataSource.query('SELECT throttle_key AS k FROM throttle_window')) as { k: string }[]).map((r) => r.k);
    expect(await keys()).toContain(`device-token:address:${old}`);
    clock.advance(16 * 60_000); // past the address window and the default lockout window
    const now = newAddress();
    await t.tokenKey('device', randomNo(), SECRET, now);
    for (let i = 0; i < 100 && (await keys()).includes(`device-token:address:${old}`); i++) await new Promise((r) => setTimeout(r, 20));
    const left = await keys();
    expect(left).not.toContain(`device-token:address:${old}`);
    expect(left).toContain(`device-token:address:${now}`);
  });
});

describe('token-call limits shared by replicas (two app instances on one database)', () => {
  const SHARED_LIMIT = 10;
  let shared: TestDatabase;
  let replicas: DeviceTestApp[];
  beforeAll(async () => {
    shared = await createSharedDatabase();
    const env = { DEVICE_TOKEN_RATE_LIMIT: String(SHARED_LIMIT), DEVICE_SECRET_MAX_FAILURES: String(MAX_FAILURES) };
    replicas = [await startDeviceApp(env, { shared }), await startDeviceApp(env, { shared })];
  });
  afterAll(async () => {
    for (const r of replicas ?? []) await r.close();
    await shared?.drop();
  });

  it('calls spread over both replicas hit the per-address limit at the same total as on one', async () => {
    const from = newAddress();
    const results = [];
    for (let i = 0; i < SHARED_LIMIT + 4; i++)
      results.push((await replicas[i % 2].tokenKey('device', randomNo(), SECRET, from)).httpStatus);
    expect(results).toEqual([...new Array(SHARED_LIMIT).fill(401), 429, 429, 429, 429]);
  });

  it('concurrent calls over both replicas: exactly the limit gets through', async () => {
    const from = newAddress();
    const results = await Promise.all(
      Array.from({ length: 2 * SHARED_LIMIT }, (_, i) => replicas[i % 2].tokenKey('device', randomNo(), SECRET, from)),
    );
    const counts = results.reduce<Record<number, number>>((acc, r) => ({ ...acc, [r.httpStatus]: (acc[r.httpStatus] ?? 0) + 1 }), {});
    expect(counts).toEqual({ 401: SHARED_LIMIT, 429: SHARED_LIMIT });
  });

  it('failures of one number from one address on both replicas lock it for that address on both', async () => {
    const no = await replicas[0].register('server', uniqueNo('server'), SECRET);
    const from = newAddress();
    for (let i = 0; i < MAX_FAILURES; i++)
      expect((await replicas[i % 2].tokenKey('server', no, `wrong-secret-${i}-xxxxxxxx`, from)).httpStatus).toBe(401);
    for (const r of replicas) expect(outcome(await r.tokenKey('server', no, SECRET, from))).toEqual(LIMITED);
    expect((await replicas[1].tokenKey('server', no, SECRET, newAddress())).status).toBe(200);
  });

  it('a success on one replica forgets the failures counted on the other', async () => {
    const no = await replicas[0].register('device', uniqueNo('device'), SECRET);
    const from = newAddress();
    for (let i = 0; i < MAX_FAILURES - 1; i++) await replicas[0].tokenKey('device', no, 'wrong-secret-xxxxxxxxxx', from);
    expect((await replicas[1].tokenKey('device', no, SECRET, from)).status).toBe(200);
    for (let i = 0; i < MAX_FAILURES - 1; i++) await replicas[0].tokenKey('device', no, 'wrong-secret-xxxxxxxxxx', from);
    // replica 0 saw more failures than allowed in all, but the success in between cleared the shared count
    expect((await replicas[0].tokenKey('device', no, SECRET, from)).status).toBe(200);
  });
});
