/**
 * Bearer token claims: `exp` is required, `tenantId` and `sub` are 1-64 characters of [0-9A-Za-z._@-]
 * (MySQL/MariaDB compare 'acme ' equal to 'acme'), and `iss`/`aud` are required when JWT_ISSUER /
 * JWT_AUDIENCE are set. Every refusal is the 401 envelope. (The dev token command: test/processes/token-command.spec.ts.)
 */
import { CONFIG, startApp, TestApp } from '../../support/test-app';
import { bearer, Claims, TokenOptions } from '../../support/tokens';

const DDT = `${CONFIG}/data-dictionary-type`;
const ISSUER = 'https://idp.example.com';
const AUDIENCE = 'back-office';

/** The 401 envelope; its error names the reason (by default any: the claim tables below say which). */
const expect401 = (res: { status: number; body: Record<string, unknown> }, reason: string | RegExp = /^Unauthorized: /) =>
  expect({ http: res.status, status: res.body.status, error: res.body.error, data: res.body.data }).toEqual({
    http: 401,
    status: 401,
    error: expect.stringMatching(reason),
    data: null,
  });

describe('Bearer token claims', () => {
  let t: TestApp;
  beforeAll(async () => (t = await startApp()));
  afterAll(() => t?.close());

  const page = (authorization: string) =>
    t.http().post(`${DDT}/page`).set('Authorization', authorization).send({ current: 1, pageSize: 10 });

  // every row has all three entries: jest passes a `done` callback to a function with more parameters than the row
  const refused: [string, Claims, TokenOptions, string][] = [
    ["tenantId with a trailing space ('acme ')", { tenantId: 'acme ' }, {}, 'tenantId'],
    ['tenantId with a leading space', { tenantId: ' acme' }, {}, 'tenantId'],
    ['tenantId with a NUL character', { tenantId: 'ac\u0000me' }, {}, 'tenantId'],
    ['tenantId with a newline', { tenantId: 'acme\n' }, {}, 'tenantId'],
    ['tenantId with a non-ASCII letter', { tenantId: 'acmé' }, {}, 'tenantId'],
    ['an empty tenantId', { tenantId: '' }, {}, 'tenantId'],
    ['a tenantId of 65 characters', { tenantId: 'a'.repeat(65) }, {}, 'tenantId'],
    ['sub with a trailing space', { sub: 'alice ' }, {}, 'sub'],
    ['sub with a tab', { sub: 'al\tice' }, {}, 'sub'],
    ['a sub of 65 characters', { sub: 'a'.repeat(65) }, {}, 'sub'],
    ['no exp', {}, { expiresIn: null }, 'exp'],
  ];

  it.each(refused)('refuses a token with %s (HTTP 401 envelope naming the claim)', async (_name, claims, options, claim) => {
    expect401(await page(bearer(claims, options)), `Unauthorized: the token's claim ${claim} is missing or invalid`);
  });

  it('accepts the whole alphabet up to 64 characters', async () => {
    for (const id of ['a', 'A-z_0.9@x', 'a'.repeat(64), 'user@example.com']) {
      const res = await page(bearer({ tenantId: id, sub: id }));
      expect({ id, http: res.status, status: res.body.status }).toEqual({ id, http: 200, status: 200 });
    }
  });

  it("a token of tenant 'acme ' neither reads, updates nor deletes tenant acme's records", async () => {
    const acme = bearer({ tenantId: 'acme' });
    const saved = await t
      .http()
      .post(`${DDT}/save`)
      .set('Authorization', acme)
      .send({ dataDictionaryTypeCode: 'claims-acme', name: 'Acme only', sort: 1 });
    expect(saved.body).toMatchObject({ status: 200 });
    const [record] = (await t.http().post(`${DDT}/list`).set('Authorization', acme).send({ dataDictionaryTypeCode: 'claims-acme' })).body
      .data;
    const id = record.dataDictionaryTypeId as string;
    for (const tenantId of ['acme ', 'acme\u0000', 'acme\t']) {
      const odd = bearer({ tenantId });
      expect401(await t.http().get(`${DDT}/getById?id=${id}`).set('Authorization', odd));
      expect401(await page(odd));
      expect401(await t.http().post(`${DDT}/count`).set('Authorization', odd).send({}));
      expect401(
        await t.http().put(`${DDT}/updateById`).set('Authorization', odd).send({ dataDictionaryTypeId: id, name: 'Overwritten', sort: 2 }),
      );
      expect401(await t.http().delete(`${DDT}/removeById?id=${id}`).set('Authorization', odd));
    }
    const after = await t.http().get(`${DDT}/getById?id=${id}`).set('Authorization', acme);
    expect(after.body.data).toMatchObject({ dataDictionaryTypeId: id, name: 'Acme only', sort: 1 });
  });

  it('without JWT_ISSUER / JWT_AUDIENCE, iss and aud are not required (any value passes)', async () => {
    expect((await page(bearer())).body.status).toBe(200);
    expect((await page(bearer({}, { issuer: 'someone', audience: 'anything' }))).body.status).toBe(200);
  });
});

describe('Bearer token iss / aud when JWT_ISSUER and JWT_AUDIENCE are set', () => {
  let t: TestApp;
  beforeAll(async () => (t = await startApp({ JWT_ISSUER: ISSUER, JWT_AUDIENCE: AUDIENCE })));
  afterAll(() => t?.close());

  const page = (authorization: string) =>
    t.http().post(`${DDT}/page`).set('Authorization', authorization).send({ current: 1, pageSize: 10 });

  it.each<[string, TokenOptions, string]>([
    ['no iss', { audience: AUDIENCE }, 'iss'],
    ['a wrong iss', { issuer: 'https://evil.example.com', audience: AUDIENCE }, 'iss'],
    ['no aud', { issuer: ISSUER }, 'aud'],
    ['a wrong aud', { issuer: ISSUER, audience: 'other-service' }, 'aud'],
    ['neither', {}, 'aud'],
  ])('refuses a token with %s (401 naming the claim, not the expected value)', async (_name, options, claim) => {
    const res = await page(bearer({}, options));
    expect401(res, new RegExp(`^Unauthorized: the token's \\w+ \\(${claim}\\) is not accepted$`));
    expect(JSON.stringify(res.body)).not.toMatch(/idp\.example\.com|back-office/);
  });

  it('accepts a token with both', async () => {
    const res = await page(bearer({}, { issuer: ISSUER, audience: AUDIENCE }));
    expect({ http: res.status, status: res.body.status }).toEqual({ http: 200, status: 200 });
  });
});
