/**
 * Errors that explain themselves, in the caller's language: a 401 says what is wrong with the token, a
 * 403 names the permission, a validation failure has one clause per property (its first rule broken),
 * localizedError comes from the shipped zh-CN and de catalogues, and the default tenant's translation
 * entries (namespace `error`, keyed by the English template) override the shipped text.
 */
import { sign } from 'jsonwebtoken';
import { CONFIG, Envelope, startApp, TestApp } from '../../support/test-app';
import { bearer, Claims, TEST_JWT_SECRET } from '../../support/tokens';

const DD = `${CONFIG}/data-dictionary`;
const EMAIL_SAVE = '/main-service/system-api/message/email/save';
const DEFAULT: Claims = { tenantId: 'default', sub: 'root' };

describe('errors that explain themselves', () => {
  let t: TestApp;
  beforeAll(async () => (t = await startApp()));
  afterAll(() => t?.close());

  const call = async (path: string, body: unknown, headers: Record<string, string>): Promise<Envelope> => {
    const req = t.http().post(path);
    for (const [name, value] of Object.entries(headers)) req.set(name, value);
    const res = await req.send(body as object);
    return { ...(res.body as Envelope), httpStatus: res.status };
  };
  const page = (authorization: string | undefined, language?: string) =>
    call(
      `${DD}/page`,
      { current: 1, pageSize: 1 },
      {
        ...(authorization ? { Authorization: authorization } : {}),
        ...(language ? { 'Accept-Language': language } : {}),
      },
    );
  const now = () => Math.floor(Date.now() / 1000);
  const claims = { sub: 'alice', tenantId: 'tenant-a', roles: ['administrator'] };

  describe('401 says which', () => {
    it.each<[string, () => string | undefined, string]>([
      ['no Authorization header', () => undefined, 'Unauthorized: no Bearer token in the Authorization header'],
      ['another scheme', () => 'Basic YWxpY2U6c2VjcmV0', 'Unauthorized: the Authorization header is not "Bearer <token>"'],
      ['a malformed token', () => 'Bearer not.a-jwt', 'Unauthorized: the Bearer token is not a well-formed JWT'],
      ['a bad signature', () => bearer({}, { secret: 'another-secret-of-16-chars' }), "Unauthorized: the token's signature is invalid"],
      ['an expired token', () => `Bearer ${sign({ ...claims, exp: now() - 5 }, TEST_JWT_SECRET)}`, 'Unauthorized: the token has expired'],
      [
        'a token not valid yet',
        () => `Bearer ${sign({ ...claims, exp: now() + 600, nbf: now() + 300 }, TEST_JWT_SECRET)}`,
        'Unauthorized: the token is not valid yet (nbf)',
      ],
      ['a token without exp', () => bearer({}, { expiresIn: null }), "Unauthorized: the token's claim exp is missing or invalid"],
      [
        "an invalid tenantId ('acme ')",
        () => bearer({ tenantId: 'acme ' }),
        "Unauthorized: the token's claim tenantId is missing or invalid",
      ],
    ])('%s', async (_name, authorization, error) => {
      const token = authorization();
      const res = await page(token);
      expect(res).toMatchObject({ httpStatus: 401, status: 401, error, localizedError: error, data: null });
      if (token) expect(JSON.stringify(res)).not.toContain(token.replace(/^\w+ /, ''));
    });
  });

  it('403 names the permission the operation needs', async () => {
    const res = await page(bearer({ roles: [], permissions: ['configuration-data-dictionary:read'] }));
    expect(res).toMatchObject({ status: 200 });
    const save = await call(
      `${DD}/save`,
      { dataDictionaryTypeCode: 'x', dataDictionaryCode: 'y' },
      {
        Authorization: bearer({ roles: [], permissions: ['configuration-data-dictionary:read'] }),
      },
    );
    expect(save).toMatchObject({ httpStatus: 403, status: 403, error: 'Forbidden: needs permission configuration-data-dictionary:create' });
  });

  it('a validation failure has one clause per property, with the first rule it breaks', async () => {
    const res = await call(EMAIL_SAVE, { subject: 123 }, { Authorization: bearer() });
    expect(res).toMatchObject({
      httpStatus: 200,
      status: 1003,
      error: 'fromAddress is required; toAddresses is required; subject must be a string; content is required',
      data: null,
    });
    const bad = await call(
      EMAIL_SAVE,
      { fromAddress: 'noreply', toAddresses: ['a@example.com'], subject: 'Hi', content: 'x' },
      {
        Authorization: bearer(),
      },
    );
    expect(bad).toMatchObject({ status: 400, error: 'fromAddress must be an e-mail address' });
  });

  describe('localizedError in zh-CN and de', () => {
    it('for a validation failure, composed from translated clauses', async () => {
      const body = { subject: 123 };
      expect(await call(EMAIL_SAVE, body, { Authorization: bearer(), 'Accept-Language': 'zh-CN,zh;q=0.9,en;q=0.8' })).toMatchObject({
        status: 1003,
        error: 'fromAddress is required; toAddresses is required; subject must be a string; content is required',
        localizedError: 'fromAddress 为必填项; toAddresses 为必填项; subject 必须是字符串; content 为必填项',
      });
      expect(await call(EMAIL_SAVE, body, { Authorization: bearer(), 'Accept-Language': 'de-CH, en;q=0.5' })).toMatchObject({
        localizedError:
          'fromAddress ist erforderlich; toAddresses ist erforderlich; subject muss eine Zeichenkette sein; content ist erforderlich',
      });
    });

    it('for a 401 and a 403', async () => {
      expect(await page(undefined, 'zh-CN')).toMatchObject({
        httpStatus: 401,
        localizedError: '未认证：Authorization 请求头中没有 Bearer 令牌',
      });
      expect(await page(`Bearer ${sign({ ...claims, exp: now() - 5 }, TEST_JWT_SECRET)}`, 'de')).toMatchObject({
        localizedError: 'Nicht angemeldet: das Token ist abgelaufen',
      });
      const reader = bearer({ roles: [], permissions: [] });
      expect(await page(reader, 'zh-CN')).toMatchObject({
        httpStatus: 403,
        localizedError: '禁止访问：需要权限 configuration-data-dictionary:read',
      });
      expect(await page(reader, 'de')).toMatchObject({
        localizedError: 'Zugriff verweigert: erfordert die Berechtigung configuration-data-dictionary:read',
      });
    });

    it('for a business error, the resource title translated too; fr has no catalogue and falls back to English', async () => {
      const body = { dataDictionaryTypeCode: 'explained', dataDictionaryCode: 'dup' };
      expect(await call(`${DD}/save`, body, { Authorization: bearer() })).toMatchObject({ status: 200 });
      const duplicate = (language: string) => call(`${DD}/save`, body, { Authorization: bearer(), 'Accept-Language': language });
      expect(await duplicate('zh-CN')).toMatchObject({ status: 422, error: 'Data dictionary exists', localizedError: '数据字典已存在' });
      expect(await duplicate('de')).toMatchObject({ status: 422, localizedError: 'Datenwörterbucheintrag existiert bereits' });
      expect(await duplicate('fr')).toMatchObject({ status: 422, localizedError: 'Data dictionary exists' });
    });
  });

  it("the default tenant's translation entries override the shipped text, template by template", async () => {
    const entry = (language: string, key: string, value: string) =>
      t.post(`${CONFIG}/translation/save`, { language, namespace: 'error', key, value }, DEFAULT);
    expect(await entry('zh-CN', '{{property}} is required', '请填写 {{property}}')).toMatchObject({ status: 200, data: true });
    expect(await entry('fr', '{{property}} is required', '{{property}} est obligatoire')).toMatchObject({ status: 200, data: true });
    const body = { subject: 123 };
    expect(await call(EMAIL_SAVE, body, { Authorization: bearer(), 'Accept-Language': 'zh-CN' })).toMatchObject({
      localizedError: '请填写 fromAddress; 请填写 toAddresses; subject 必须是字符串; 请填写 content',
    });
    expect(await call(EMAIL_SAVE, body, { Authorization: bearer(), 'Accept-Language': 'fr' })).toMatchObject({
      localizedError: 'fromAddress est obligatoire; toAddresses est obligatoire; subject must be a string; content est obligatoire',
    });
  });
});
