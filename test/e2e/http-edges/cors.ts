/**
 * CORS for browser apps (CORS_ORIGINS), on both services: a listed origin gets its preflight answered
 * without a token and may read X-Request-Id; any other origin gets no Access-Control-Allow-Origin; with
 * CORS_ORIGINS unset there is no CORS header at all.
 */
import { startDeviceApp } from '../../support/device-app';
import { CONFIG, startApp, TestApp } from '../../support/test-app';

const ALLOWED = 'https://admin.example.com';
const ALSO_ALLOWED = 'http://localhost:5173';
const OTHER = 'https://evil.example.net';

const SERVICES = [
  {
    name: 'main-service',
    start: (env: Record<string, string>) => startApp(env),
    path: `${CONFIG}/data-dictionary-type/count`,
    method: 'post' as const,
  },
  {
    name: 'device-service',
    start: (env: Record<string, string>) => startDeviceApp(env),
    path: '/device-service/system-api/device/data-acquisition-server/count',
    method: 'post' as const,
  },
];

describe.each(SERVICES)('CORS on $name', ({ start, path, method }) => {
  describe('with CORS_ORIGINS set', () => {
    let t: TestApp;
    // a configured origin in another spelling (upper case, default port) still matches what browsers send
    beforeAll(async () => (t = await start({ CORS_ORIGINS: `https://Admin.Example.com:443,${ALSO_ALLOWED}` })));
    afterAll(() => t.close());

    const preflight = (origin: string) =>
      t
        .http()
        .options(path)
        .set('Origin', origin)
        .set('Access-Control-Request-Method', 'POST')
        .set('Access-Control-Request-Headers', 'authorization,content-type,x-request-id');

    it('answers a preflight of a listed origin without a token', async () => {
      for (const origin of [ALLOWED, ALSO_ALLOWED]) {
        const res = await preflight(origin);
        expect(res.status).toBe(204);
        expect(res.headers['access-control-allow-origin']).toBe(origin);
        expect(res.headers['access-control-allow-methods']).toBe('GET,POST,PUT,DELETE');
        expect(res.headers['access-control-allow-headers']).toBe('Authorization,Content-Type,Accept-Language,X-Request-Id');
        expect(Number(res.headers['access-control-max-age'])).toBeGreaterThan(0);
        expect(res.headers['access-control-allow-credentials']).toBeUndefined();
        expect(res.headers.vary).toMatch(/\bOrigin\b/);
      }
    });

    it('lets a listed origin read the answer and its X-Request-Id', async () => {
      const res = await t.http()[method](path).set('Origin', ALLOWED).set('Authorization', t.auth()).send({});
      expect(res.body).toMatchObject({ status: 200, data: 0 });
      expect(res.headers['access-control-allow-origin']).toBe(ALLOWED);
      expect(res.headers['access-control-expose-headers']).toBe('X-Request-Id');
      expect(res.headers['x-request-id']).toEqual(expect.any(String));
      expect(res.headers['access-control-allow-credentials']).toBeUndefined();
      expect(res.headers.vary).toMatch(/\bOrigin\b/);
    });

    it('carries the headers on failures too (401 without a token)', async () => {
      const res = await t.http()[method](path).set('Origin', ALLOWED).send({});
      expect(res.body).toMatchObject({ status: 401 });
      expect(res.headers['access-control-allow-origin']).toBe(ALLOWED);
    });

    it('gives any other origin no Access-Control-Allow-Origin', async () => {
      const pre = await preflight(OTHER);
      expect(pre.headers['access-control-allow-origin']).toBeUndefined();
      const res = await t.http()[method](path).set('Origin', OTHER).set('Authorization', t.auth()).send({});
      expect(res.body).toMatchObject({ status: 200 });
      expect(res.headers['access-control-allow-origin']).toBeUndefined();
      expect(res.headers.vary).toMatch(/\bOrigin\b/);
    });
  });

  describe('with CORS_ORIGINS unset', () => {
    let t: TestApp;
    beforeAll(async () => (t = await start({})));
    afterAll(() => t.close());

    it('sends no CORS header at all', async () => {
      const res = await t.http()[method](path).set('Origin', ALLOWED).set('Authorization', t.auth()).send({});
      expect(res.body).toMatchObject({ status: 200 });
      expect(Object.keys(res.headers).filter((h) => h.startsWith('access-control-'))).toEqual([]);
      const pre = await t.http().options(path).set('Origin', ALLOWED).set('Access-Control-Request-Method', 'POST');
      expect(Object.keys(pre.headers).filter((h) => h.startsWith('access-control-'))).toEqual([]);
    });
  });
});
