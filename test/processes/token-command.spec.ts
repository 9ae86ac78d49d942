/**
 * The dev token command as `npm run token` runs it (the built mint-token.js): with JWT_ISSUER and JWT_AUDIENCE
 * set it mints tokens with exp, iss and aud that the service accepts, saying on stderr which secret signed them (never
 * the secret), and it refuses claims the service would refuse.
 */
import { decode } from 'jsonwebtoken';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { buildIfStale } from '../../scripts/build-if-stale';
import { CONFIG, startApp, TestApp } from '../support/test-app';
import { TEST_JWT_SECRET } from '../support/tokens';

const DDT = `${CONFIG}/data-dictionary-type`;
const ISSUER = 'https://idp.example.com';
const AUDIENCE = 'back-office';

/** Runs the built dev token command (what `npm run token -- ...args` runs) and returns what it printed. */
async function mintToken(args: string[], env: Record<string, string>): Promise<{ out: string; err: string; exitCode: number }> {
  const command = join(__dirname, '../../dist/apps/main-service/src/mint-token.js');
  const { JWT_ISSUER: _issuer, JWT_AUDIENCE: _audience, JWT_SECRET: _secret, ...inherited } = process.env;
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [command, ...args], { env: { ...inherited, ...env } });
    return { out: stdout.trim(), err: stderr, exitCode: 0 };
  } catch (error) {
    const failed = error as { stdout?: string; stderr?: string; code?: number };
    return { out: (failed.stdout ?? '').trim(), err: failed.stderr ?? '', exitCode: failed.code ?? -1 };
  }
}

describe('the dev token command with JWT_ISSUER and JWT_AUDIENCE set', () => {
  let t: TestApp;
  beforeAll(async () => {
    buildIfStale({ quiet: true });
    t = await startApp({ JWT_ISSUER: ISSUER, JWT_AUDIENCE: AUDIENCE });
  }, 300_000);
  afterAll(() => t?.close());

  const page = (authorization: string) =>
    t.http().post(`${DDT}/page`).set('Authorization', authorization).send({ current: 1, pageSize: 10 });

  it('mints a token with exp, iss and aud that the service accepts', async () => {
    const { out, err, exitCode } = await mintToken(['--tenant', 'acme', '--user', 'alice', '--roles', 'administrator', '--expires', '1h'], {
      JWT_SECRET: TEST_JWT_SECRET,
      JWT_ISSUER: ISSUER,
      JWT_AUDIENCE: AUDIENCE,
    });
    // one line on stderr names the secret's source, never the secret
    expect({ err, exitCode }).toEqual({
      err: 'token: signed with JWT_SECRET from the environment; a service accepts it when its JWT_SECRET is the same\n',
      exitCode: 0,
    });
    expect(err).not.toContain(TEST_JWT_SECRET);
    const claims = decode(out) as Record<string, unknown>;
    expect(claims).toMatchObject({ sub: 'alice', tenantId: 'acme', roles: ['administrator'], iss: ISSUER, aud: AUDIENCE });
    expect(claims.exp).toBe((claims.iat as number) + 3600);
    const res = await page(`Bearer ${out}`);
    expect({ http: res.status, status: res.body.status }).toEqual({ http: 200, status: 200 });
  });

  it('says on stderr when it signed with the built-in development secret, which this service (its own JWT_SECRET) refuses', async () => {
    const { out, err, exitCode } = await mintToken(['--tenant', 'acme'], { JWT_ISSUER: ISSUER, JWT_AUDIENCE: AUDIENCE });
    expect({ err, exitCode }).toEqual({
      err: 'token: signed with the built-in development secret (JWT_SECRET unset); a service accepts it while its own JWT_SECRET is unset too\n',
      exitCode: 0,
    });
    const res = await page(`Bearer ${out}`);
    expect({ http: res.status, error: res.body.error }).toEqual({ http: 401, error: "Unauthorized: the token's signature is invalid" });
  });

  it('refuses claims the services would refuse', async () => {
    const refusals = [
      ['--tenant', 'acme '],
      ['--user', 'al ice'],
      ['--tenant', ''],
      ['--expires', ''],
      ['--roles', 'admin'],
      ['--roles', 'administrator,operator'],
    ];
    const results = await Promise.all(refusals.map((args) => mintToken(args, { JWT_SECRET: TEST_JWT_SECRET })));
    for (const [i, { out, err, exitCode }] of results.entries()) {
      expect({ args: refusals[i], out, exitCode }).toEqual({ args: refusals[i], out: '', exitCode: 1 });
      expect(err).toMatch(/^--(tenant|user|expires) must |^--roles: unknown role (admin|operator): the services know only administrator/);
    }
  });
});
