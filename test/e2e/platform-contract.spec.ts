import { sign } from 'jsonwebtoken';
import { bearer, TEST_JWT_SECRET } from '../support/tokens';
import { CONFIG, Envelope, startApp, TestApp } from '../support/test-app';

/** DESIGN §4 rows and §7 rules that hold for every operation, shown on one sample resource. */
const TYPE = `${CONFIG}/data-dictionary-type`;
const ENVELOPE_KEYS = ['data', 'error', 'extraData', 'localizedError', 'path', 'status', 'timestamp'];
const INTERNALS = /\bat [\w.<>]+ \(|\.ts:\d|node_modules|SELECT |INSERT |UPDATE `|QueryFailedError|SQLITE_|ER_[A-Z_]+/;

let t: TestApp;
beforeAll(async () => (t = await startApp()));
afterAll(() => t.close());

function expectFailure(res: { status: number; body: Envelope }, http: number, status: number, path: string): void {
  expect(res.status).toBe(http);
  expect(Object.keys(res.body).sort()).toEqual(ENVELOPE_KEYS);
  expect(res.body).toMatchObject({ status, path, data: null, extraData: {} });
  expect(typeof res.body.error).toBe('string');
  expect(JSON.stringify(res.body)).not.toMatch(INTERNALS);
}

describe('envelope', () => {
  it('a success has exactly the envelope keys, HTTP 200, nulls for error fields and a fresh timestamp', async () => {
    const res = await t.http().post(`${TYPE}/count`).set('Authorization', bearer()).send({});
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(ENVELOPE_KEYS);
    expect(res.body).toMatchObject({ status: 200, error: null, localizedError: null, path: null, extraData: {}, data: 0 });
    expect(Math.abs(res.body.timestamp - Date.now())).toBeLessThan(10_000);
  });

  it('an X-Request-Id is echoed when well-formed, generated otherwise', async () => {
    const given = await t.http().post(`${TYPE}/count`).set('Authorization', bearer()).set('X-Request-Id', 'req-123.abc').send({});
    expect(given.headers['x-request-id']).toBe('req-123.abc');
    const generated = await t.http().post(`${TYPE}/count`).set('Authorization', bearer()).set('X-Request-Id', 'bad id\twith junk').send({});
    expect(generated.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('authentication (401)', () => {
  const page = (authorization?: string) => {
    const req = t.http().post(`${TYPE}/page`).send({});
    return authorization === undefined ? req : req.set('Authorization', authorization);
  };
  const now = Math.floor(Date.now() / 1000);
  const cases: [string, string | undefined][] = [
    ['no Authorization header', undefined],
    ['a malformed token', 'Bearer not-a-jwt'],
    ['a token of another secret', bearer({}, { secret: 'another-secret-of-16-chars' })],
    ['an expired token', `Bearer ${sign({ sub: 'alice', tenantId: 'tenant-a', roles: ['administrator'], exp: now - 60 }, TEST_JWT_SECRET)}`],
    ['a token without tenantId', `Bearer ${sign({ sub: 'alice', roles: ['administrator'] }, TEST_JWT_SECRET, { expiresIn: 60 })}`],
    ['a token without sub', `Bearer ${sign({ tenantId: 'tenant-a', roles: ['administrator'] }, TEST_JWT_SECRET, { expiresIn: 60 })}`],
    ['an unsigned (alg none) token', `Bearer ${sign({ sub: 'alice', tenantId: 'tenant-a', roles: ['administrator'] }, '', { algorithm: 'none' })}`],
    ['a Basic header', 'Basic YWxpY2U6c2VjcmV0'],
  ];
  it.each(cases)('%s → HTTP 401, body status 401', async (_name, authorization) => {
    expectFailure(await page(authorization), 401, 401, `${TYPE}/page`);
  });
});

describe('authorisation (403)', () => {
  it('a token with no role and no permission is refused; another resource or action grants nothing; administrator passes', async () => {
    const call = (claims: object) => t.http().post(`${TYPE}/page`).set('Authorization', bearer({ roles: [], ...claims })).send({});
    expectFailure(await call({ permissions: [] }), 403, 403, `${TYPE}/page`);
    expectFailure(await call({ permissions: ['configuration-data-dictionary:read'] }), 403, 403, `${TYPE}/page`);
    expectFailure(await call({ permissions: ['configuration-data-dictionary-type:create'] }), 403, 403, `${TYPE}/page`);
    expectFailure(await call({ roles: ['operator'], permissions: ['read'] }), 403, 403, `${TYPE}/page`);
    expect((await call({ permissions: ['configuration-data-dictionary-type:read'] })).body.status).toBe(200);
    expect((await call({ roles: ['administrator'] })).body.status).toBe(200);
  });
});

describe('request failures', () => {
  it('an unknown route → HTTP 404, body status 404, with the path', async () => {
    expectFailure(await t.http().get('/main-service/no/such/route?x=1').set('Authorization', bearer()), 404, 404, '/main-service/no/such/route');
    expectFailure(await t.http().get('/elsewhere'), 404, 404, '/elsewhere');
  });

  it('a malformed JSON body → HTTP 200, body status 1004', async () => {
    const res = await t.http().post(`${TYPE}/save`).set('Authorization', bearer()).set('Content-Type', 'application/json').send('{"dataDictionaryTypeCode": ');
    expectFailure(res, 200, 1004, `${TYPE}/save`);
  });

  it('a value of the wrong type → 1003; a rule violation → 400 naming the field and rule', async () => {
    const wrongType = await t.http().post(`${TYPE}/save`).set('Authorization', bearer()).send({ dataDictionaryTypeCode: 'x', sort: 'first' });
    expectFailure(wrongType, 200, 1003, `${TYPE}/save`);
    expect(wrongType.body.error).toContain('sort');
    const blank = await t.http().post(`${TYPE}/save`).set('Authorization', bearer()).send({ dataDictionaryTypeCode: '   ' });
    expectFailure(blank, 200, 400, `${TYPE}/save`);
    expect(blank.body.error).toMatch(/dataDictionaryTypeCode must not be blank/);
    const body = await t.http().post(`${TYPE}/save`).set('Authorization', bearer()).send([{ dataDictionaryTypeCode: 'x' }]);
    expect(body.body.status).toBe(1003);
  });

  it('a body over the limit → HTTP 413 envelope, nothing written', async () => {
    const huge = JSON.stringify({ dataDictionaryTypeCode: 'big', remark: 'x'.repeat(17 * 1024 * 1024) });
    const res = await t.http().post(`${TYPE}/save`).set('Authorization', bearer()).set('Content-Type', 'application/json').send(huge);
    expectFailure(res, 413, 413, `${TYPE}/save`);
    expect((await t.post(`${TYPE}/count`, { dataDictionaryTypeCode: 'big' })).data).toBe(0);
  });
});

describe('OpenAPI', () => {
  let doc: any;
  beforeAll(async () => {
    const res = await t.http().get('/main-service/v3/api-docs');
    expect(res.status).toBe(200);
    doc = res.body;
  });

  const operations = () =>
    Object.entries<Record<string, any>>(doc.paths).flatMap(([path, methods]) => Object.entries(methods).map(([method, op]) => ({ key: `${method.toUpperCase()} ${path}`, op })));

  it('lists exactly the 88 configuration-group operations at their methods', () => {
    const standard = ['POST count', 'GET getById', 'POST list', 'POST page', 'DELETE removeById', 'DELETE removeByIds', 'POST save', 'PUT updateById'];
    const resources = ['data-dictionary', 'data-dictionary-map', 'data-dictionary-table', 'data-dictionary-type', 'translation', 'value-set', 'value-set-map', 'value-set-table', 'value-set-type'];
    const importable = resources.filter((r) => r !== 'translation');
    const expected = [
      ...resources.flatMap((r) => standard.map((s) => s.replace(' ', ` ${CONFIG}/${r}/`))),
      ...importable.map((r) => `POST ${CONFIG}/${r}/importList`),
      `POST ${CONFIG}/translation/importList`,
      `POST ${CONFIG}/data-dictionary/listCache`,
      `POST ${CONFIG}/data-dictionary-type/listCache`,
      `POST ${CONFIG}/data-dictionary-table/saveOrUpdate`,
      `POST ${CONFIG}/value-set-table/saveBatch`,
      `POST ${CONFIG}/translation/saveMissing`,
      'GET /main-service/main-api/v1/general/configuration/base/getClientIp',
      'GET /main-service/main-api/v1/general/configuration/base/getCloudServiceInfo',
    ];
    expect(expected).toHaveLength(88);
    expect(operations().map((o) => o.key).sort()).toEqual(expected.sort());
  });

  it('every operation but saveMissing needs the Bearer token, and shows its permission', () => {
    for (const { key, op } of operations()) {
      if (key.endsWith('/saveMissing')) {
        expect(op.security).toBeUndefined();
        continue;
      }
      expect({ key, security: op.security }).toEqual({ key, security: [{ bearer: [] }] });
      if (op['x-permission']) expect(op.description).toContain(op['x-permission']);
    }
    const permission = (key: string) => operations().find((o) => o.key === key)?.op['x-permission'];
    expect(permission(`POST ${CONFIG}/data-dictionary-table/page`)).toBe('configuration-data-dictionary-table:read');
    expect(permission(`POST ${CONFIG}/data-dictionary-map/save`)).toBe('configuration-data-dictionary-map:create');
    expect(permission(`DELETE ${CONFIG}/value-set-table/removeByIds`)).toBe('value-set-table:delete');
    expect(doc.components.securitySchemes.bearer).toMatchObject({ type: 'http', scheme: 'bearer' });
  });

  it('every POST/PUT has a request body schema and every 200 response is the envelope with a typed data', () => {
    for (const { key, op } of operations()) {
      if (key.startsWith('POST') || key.startsWith('PUT')) {
        const content = op.requestBody?.content ?? {};
        expect({ key, schema: !!Object.values<any>(content)[0]?.schema }).toEqual({ key, schema: true });
      }
      const schema = op.responses['200'].content['application/json'].schema;
      expect({ key, required: schema.required }).toEqual({ key, required: ['timestamp', 'status', 'error', 'localizedError', 'path', 'extraData', 'data'] });
      expect(schema.properties.data).toBeDefined();
    }
    const page = operations().find((o) => o.key === `POST ${CONFIG}/data-dictionary-table/page`)!.op;
    const envelope = page.responses['200'].content['application/json'].schema;
    expect(Object.keys(envelope.properties.extraData.properties)).toEqual(['current', 'pages', 'size', 'total']);
    expect(envelope.properties.data.items.$ref).toBe('#/components/schemas/DataDictionaryTable');
    expect(doc.components.schemas.DataDictionaryTablePageRequest.properties).toHaveProperty('pageSize');
  });

  it('Swagger UI is served', async () => {
    const res = await t.http().get('/main-service/swagger-ui/');
    expect(res.status).toBe(200);
    expect(res.text).toContain('swagger-ui');
  });
});

describe('storage unavailable', () => {
  it('→ HTTP 503, body status 503, without SQL or stack', async () => {
    const down = await startApp();
    try {
      await down.dataSource.destroy();
      const res = await down.http().post(`${TYPE}/page`).set('Authorization', bearer()).send({ current: 1, pageSize: 10 });
      expectFailure(res, 503, 503, `${TYPE}/page`);
    } finally {
      await down.app.close().catch(() => undefined);
    }
  });
});
