/**
 * getClientIp through a trusted proxy (TRUST_PROXY=loopback: the test client is the proxy): the forwarded
 * address is answered only when it is an IPv4 or IPv6 address; anything else a proxy passed on from its
 * client gives the address of the connection.
 */
import { startApp, TestApp } from '../../support/test-app';

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
