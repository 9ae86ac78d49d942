/**
 * The client address through a trusted proxy (TRUST_PROXY=loopback: the test client is the proxy): the
 * forwarded address is the client's only when it is an IPv4 or IPv6 address; anything else a proxy passed
 * on from its client gives the address of the connection. getClientIp answers it; the per-address limits
 * (here saveMissing's) count it, an IPv6 client by its /64 network.
 */
import { CONFIG, startApp, TestApp } from '../../support/test-app';

const PATH = '/main-service/main-api/v1/general/configuration/base/getClientIp';

describe('getClientIp', () => {
  let t: TestApp;
  beforeAll(async () => (t = await startApp({ TRUST_PROXY: 'loopback' })));
  afterAll(() => t.close());

  const clientIp = async (forwarded?: string) => {
    const req = t.http().get(PATH).set('Authorization', t.auth());
    const res = await (forwarded === undefined ? req : req.set('X-Forwarded-For', forwarded));
    expect(res.body).toMatchObject({ status: 200, error: null });
    return res.body.data as string;
  };

  it('answers the forwarded address of a trusted proxy (IPv4, IPv6, IPv4-mapped)', async () => {
    expect(await clientIp('203.0.113.7')).toBe('203.0.113.7');
    expect(await clientIp('2001:db8::7')).toBe('2001:db8::7');
    expect(await clientIp('::ffff:203.0.113.8')).toBe('203.0.113.8');
    expect(await clientIp('198.51.100.1, 203.0.113.9')).toBe('203.0.113.9');
    // IPv4 tails that not every address library reads
    expect(await clientIp('::8.8.8.8')).toBe('::8.8.8.8');
    expect(await clientIp('64:ff9b::8.8.8.8')).toBe('64:ff9b::8.8.8.8');
  });

  it('answers the connection address when the forwarded entry is not an address', async () => {
    const own = await clientIp();
    expect(own).toMatch(/^(127\.0\.0\.1|::1)$/);
    for (const forwarded of [
      '<script>alert(1)</script>',
      '203.0.113.7:8080',
      '[2001:db8::7]',
      'unknown',
      '203.0.113.300',
      '198.51.100.1, <img src=x>',
      ' ',
    ]) {
      expect({ forwarded, answer: await clientIp(forwarded) }).toEqual({ forwarded, answer: own });
    }
  });
});

describe('the saveMissing limit per client address', () => {
  const LIMIT = 3;
  let t: TestApp;
  beforeAll(async () => (t = await startApp({ TRUST_PROXY: 'loopback', SAVE_MISSING_RATE_LIMIT: String(LIMIT) })));
  afterAll(() => t.close());

  let seq = 0;
  /** The HTTP status of one saveMissing report (a fresh key each) from `forwarded`, or from the proxy itself. */
  const report = async (forwarded?: string) => {
    const req = t
      .http()
      .post(`${CONFIG}/translation/saveMissing?lng=en&ns=clientip`)
      .send({ [`key${++seq}`]: 'v' });
    return (await (forwarded === undefined ? req : req.set('X-Forwarded-For', forwarded))).status;
  };

  it('counts the addresses of one IPv6 /64 as one client', async () => {
    const statuses = [];
    for (let i = 1; i <= LIMIT; i++) statuses.push(await report(`2001:db8:5:1::${i}`));
    statuses.push(await report('2001:db8:5:1:ffff:ffff:ffff:ffff'));
    expect(statuses).toEqual([...new Array(LIMIT).fill(200), 429]);
    expect(await report('2001:db8:5:2::1')).toBe(200);
  });

  it('counts an IPv4-mapped address as its IPv4 address', async () => {
    for (let i = 0; i < LIMIT; i++) expect(await report(i % 2 ? '203.0.113.20' : '::ffff:203.0.113.20')).toBe(200);
    expect(await report('::FFFF:cb00:7114')).toBe(429);
  });

  it('counts a forwarded entry that is not an address as the proxy itself, not as a fresh client each', async () => {
    const statuses = [];
    for (const forwarded of ['<script>', 'unknown', '203.0.113.300']) statuses.push(await report(forwarded));
    statuses.push(await report(), await report('[2001:db8::7]'));
    expect(statuses).toEqual([...new Array(LIMIT).fill(200), 429, 429]);
  });
});
