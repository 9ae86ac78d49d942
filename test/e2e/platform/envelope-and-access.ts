/**
 * Platform behaviour not specific to one resource: the envelope and the failure table of contract.md "The envelope",
 * authentication and permissions (§7), X-Request-Id, and the OpenAPI document (§1, §7).
 * data-dictionary-type is the sample resource. Expected behaviour comes from docs/contract.md
 * and docs/decisions.md, not from the application code.
 */
import { generateKeyPairSync, KeyObject } from 'node:crypto';
import { Logger } from '@nestjs/common';
import { sign } from 'jsonwebtoken';
import type { Response } from 'supertest';
import { CONFIG, HttpVerb, startApp, TestApp } from '../../support/test-app';
import { usingMysql } from '../../support/database';
import { bearer, Claims, TEST_JWT_SECRET } from '../../support/tokens';
import type { Json } from '../../support/json';
import { answerSchema } from '../../support/openapi-walk';

const DDT = `${CONFIG}/data-dictionary-type`;
const ENVELOPE_KEYS = ['data', 'error', 'extraData', 'localizedError', 'path', 'status', 'timestamp'];

let counter = 0;
const code = (): string => `ddt-platform-${++counter}`;

/** Anything that reveals internals: stack frames, source locations, driver codes, SQL. */
const LEAKS: RegExp[] = [
  /\bat [\w$.<>[\] ]+ \(/, // "at Foo.bar (" stack frame
  /\n\s*at\s/, // multi-line stack
  /\bat (?:async )?\/[\w/.-]+:\d+/, // "at /path/file.js:1:2"
  /\.ts:\d+/,
  /\.js:\d+/,
  /node_modules/,
  /\bSELECT\b/i,
  /\bINSERT\b/i,
  /\bUPDATE\s+[`"]/i,
  /\bDELETE\s+FROM\b/i,
  /\bWHERE\b/,
  /SQLITE_/,
  /\bER_[A-Z_]+/,
  /QueryFailedError|TypeORMError|EntityMetadata/,
];

function expectNoLeak(res: Response): void {
  const text = res.text ?? '';
  for (const leak of LEAKS)
    expect({ leak: String(leak), found: leak.test(text), text: text.slice(0, 500) }).toMatchObject({ found: false });
}

const FILE_STARTED = Date.now();

function expectEnvelopeShape(res: Response): void {
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  expect(Object.keys(res.body).sort()).toEqual(ENVELOPE_KEYS);
  expect(Number.isInteger(res.body.timestamp)).toBe(true);
  // stamped while this file ran (no tolerance that a slow machine could exceed)
  expect(res.body.timestamp).toBeGreaterThanOrEqual(FILE_STARTED);
  expect(res.body.timestamp).toBeLessThanOrEqual(Date.now());
}

/** A failure of contract.md "The envelope": the envelope, the HTTP and body statuses, the request path, no internals. */
function expectFailure(res: Response, http: number, status: number, path: string): void {
  expect({ http: res.status, status: res.body?.status }).toEqual({ http, status });
  expectEnvelopeShape(res);
  expect(res.body).toMatchObject({ status, path, data: null, extraData: {} });
  expect(typeof res.body.error).toBe('string');
  expect(res.body.error.length).toBeGreaterThan(0);
  // no Accept-Language was sent: localizedError falls back to error
  expect(res.body.localizedError).toBe(res.body.error);
  expectNoLeak(res);
}

function expectSuccess(res: Response): void {
  expect({ http: res.status, status: res.body?.status }).toEqual({ http: 200, status: 200 });
  expectEnvelopeShape(res);
  expect(res.body).toMatchObject({ error: null, localizedError: null, path: null });
}

const base64url = (o: object): string => Buffer.from(JSON.stringify(o)).toString('base64url');

describe('platform', () => {
  let t: TestApp;
  beforeAll(async () => (t = await startApp()));
  afterAll(() => t?.close());

  const page = (authorization?: string, body: unknown = { current: 1, pageSize: 10 }) => {
    const req = t.http().post(`${DDT}/page`);
    if (authorization !== undefined) req.set('Authorization', authorization);
    return req.send(body as object);
  };
  const save = (body: Json, authorization: string = bearer()) =>
    t.http().post(`${DDT}/save`).set('Authorization', authorization).send(body);
  const countCodes = async (c: string): Promise<number> => {
    const res = await t.post(`${DDT}/count`, { dataDictionaryTypeCode: c });
    expect(res.status).toBe(200);
    return res.data as number;
  };

  describe('success envelope', () => {
    it('has exactly the seven keys, nulls for error/localizedError/path, {} extraData and a current timestamp', async () => {
      const c = code();
      const before = Date.now();
      const saved = await save({ dataDictionaryTypeCode: c, name: 'Envelope', sort: 1 });
      const after = Date.now();
      expectSuccess(saved);
      expect(saved.body).toEqual({
        timestamp: saved.body.timestamp,
        status: 200,
        error: null,
        localizedError: null,
        path: null,
        extraData: {},
        data: true,
      });
      expect(saved.body.timestamp).toBeGreaterThanOrEqual(before);
      expect(saved.body.timestamp).toBeLessThanOrEqual(after);

      const counted = await t.http().post(`${DDT}/count`).set('Authorization', bearer()).send({ dataDictionaryTypeCode: c });
      expectSuccess(counted);
      expect(counted.body).toMatchObject({ extraData: {}, data: 1 });

      const listed = await t.http().post(`${DDT}/list`).set('Authorization', bearer()).send({ dataDictionaryTypeCode: c });
      expectSuccess(listed);
      expect(listed.body.extraData).toEqual({});
      expect(listed.body.data).toHaveLength(1);
      const id = listed.body.data[0].dataDictionaryTypeId as string;

      const got = await t.http().get(`${DDT}/getById?id=${id}`).set('Authorization', bearer());
      expectSuccess(got);
      expect(got.body.extraData).toEqual({});
      expect(got.body.data).toMatchObject({ dataDictionaryTypeId: id, dataDictionaryTypeCode: c });

      const removed = await t.http().delete(`${DDT}/removeById?id=${id}`).set('Authorization', bearer());
      expectSuccess(removed);
      expect(removed.body).toMatchObject({ extraData: {}, data: true });
    });

    it('page fills extraData with exactly current, pages, size and total', async () => {
      const res = await page(bearer(), { current: 1, pageSize: 10 });
      expectSuccess(res);
      expect(Object.keys(res.body.extraData).sort()).toEqual(['current', 'pages', 'size', 'total']);
      expect(res.body.extraData).toMatchObject({ current: 1, size: 10 });
      expect(Array.isArray(res.body.data)).toBe(true);
    });

    it('carries no ETag (each envelope has its own timestamp, so none could match) and no X-Powered-By', async () => {
      const res = await page(bearer(), { current: 1, pageSize: 10 });
      expectSuccess(res);
      expect(res.headers.etag).toBeUndefined();
      expect(res.headers['x-powered-by']).toBeUndefined();
    });

    it('getById of an absent id is a success with data null', async () => {
      const res = await t.http().get(`${DDT}/getById?id=doesNotExist0000000000`).set('Authorization', bearer());
      expectSuccess(res);
      expect(res.body).toMatchObject({ extraData: {}, data: null });
    });
  });

  describe('401: missing, invalid or expired token', () => {
    const now = () => Math.floor(Date.now() / 1000);
    const cases: [string, () => string | undefined][] = [
      ['no Authorization header', () => undefined],
      ['an empty Bearer token', () => 'Bearer '],
      ['a malformed token', () => 'Bearer not-a-jwt'],
      ['a token of three garbage segments', () => 'Bearer aaa.bbb.ccc'],
      ['a valid token under another scheme', () => bearer().replace(/^Bearer /, 'Basic ')],
      ['a token signed with another secret', () => bearer({}, { secret: 'another-secret-of-at-least-16-chars' })],
      ['an expired token (negative expiresIn)', () => bearer({}, { expiresIn: -60 })],
      [
        'an expired token (exp in the past)',
        () =>
          `Bearer ${sign({ sub: 'alice', tenantId: 'tenant-a', roles: ['administrator'], permissions: [], iat: now() - 3600, exp: now() - 1800 }, TEST_JWT_SECRET, { algorithm: 'HS256' })}`,
      ],
      ['a token without tenantId', () => bearer({ tenantId: undefined })],
      ['a token with an empty tenantId', () => bearer({ tenantId: '' })],
      ['a token with a non-string tenantId', () => bearer({ tenantId: 42 as unknown as string })],
      ['a token without sub', () => bearer({ sub: undefined })],
      ['a token with an empty sub', () => bearer({ sub: '' })],
      [
        'an unsigned token (alg none)',
        () =>
          `Bearer ${base64url({ alg: 'none', typ: 'JWT' })}.${base64url({ sub: 'alice', tenantId: 'tenant-a', roles: ['administrator'], iat: now(), exp: now() + 600 })}.`,
      ],
      [
        'a token whose payload was altered after signing',
        () => {
          const [h, , s] = bearer({ roles: [] })
            .replace(/^Bearer /, '')
            .split('.');
          return `Bearer ${h}.${base64url({ sub: 'alice', tenantId: 'tenant-a', roles: ['administrator'], permissions: [], iat: now(), exp: now() + 600 })}.${s}`;
        },
      ],
    ];

    it.each(cases)('%s → HTTP 401, body 401, path, data null', async (_name, authorization) => {
      const res = await page(authorization());
      expectFailure(res, 401, 401, `${DDT}/page`);
    });

    it('a token accepted before is refused once it expires', async () => {
      // valid for one to two seconds: accepted (and remembered) now, expired on the second call
      const exp = now() + 2;
      const token = `Bearer ${sign({ sub: 'alice', tenantId: 'tenant-a', roles: ['administrator'], permissions: [], exp }, TEST_JWT_SECRET, { algorithm: 'HS256' })}`;
      expectSuccess(await page(token));
      await new Promise((resolve) => setTimeout(resolve, exp * 1000 - Date.now() + 10));
      expectFailure(await page(token), 401, 401, `${DDT}/page`);
    });

    it('the path is the request path without the query string', async () => {
      const res = await t.http().get(`${DDT}/getById?id=abc`);
      expectFailure(res, 401, 401, `${DDT}/getById`);
    });

    it('a refused write changes nothing', async () => {
      const c = code();
      const res = await save({ dataDictionaryTypeCode: c }, bearer({}, { secret: 'another-secret-of-at-least-16-chars' }));
      expectFailure(res, 401, 401, `${DDT}/save`);
      const anonymous = await t.http().post(`${DDT}/save`).send({ dataDictionaryTypeCode: c });
      expectFailure(anonymous, 401, 401, `${DDT}/save`);
      expect(await countCodes(c)).toBe(0);
    });

    it('every standard operation of the sample resource needs a token', async () => {
      const ops: [HttpVerb, string][] = [
        ['post', 'count'],
        ['get', 'getById?id=x'],
        ['post', 'list'],
        ['post', 'page'],
        ['delete', 'removeById?id=x'],
        ['delete', 'removeByIds?ids=x'],
        ['post', 'save'],
        ['put', 'updateById'],
        ['post', 'importList'],
        ['post', 'listCache'],
      ];
      for (const [method, op] of ops) {
        const res = await t.http()[method](`${DDT}/${op}`).send({});
        expectFailure(res, 401, 401, `${DDT}/${op.split('?')[0]}`);
      }
    });
  });

  describe('403: authenticated but lacking role or permission', () => {
    const token = (claims: Claims) => bearer({ sub: 'bob', roles: [], permissions: [], ...claims });

    it.each<[string, Claims]>([
      ['no role and no permission', {}],
      ['a permission of another resource', { permissions: ['configuration-data-dictionary:read'] }],
      [
        'another action of the same resource',
        {
          permissions: [
            'configuration-data-dictionary-type:create',
            'configuration-data-dictionary-type:update',
            'configuration-data-dictionary-type:delete',
          ],
        },
      ],
      ['the bare resource name without an action', { permissions: ['configuration-data-dictionary-type'] }],
      ['a wildcard-looking permission', { permissions: ['configuration-data-dictionary-type:*', '*'] }],
      ['a role other than administrator', { roles: ['operator', 'user'] }],
      ['a role differing from administrator by case', { roles: ['Administrator', 'ADMINISTRATOR'] }],
    ])('%s → HTTP 403, body 403', async (_name, claims) => {
      const res = await page(token(claims));
      expectFailure(res, 403, 403, `${DDT}/page`);
    });

    it('the read permission of the resource passes page, and refuses save without writing', async () => {
      const reader = token({ permissions: ['configuration-data-dictionary-type:read'] });
      expectSuccess(await page(reader));
      const c = code();
      const refused = await save({ dataDictionaryTypeCode: c }, reader);
      expectFailure(refused, 403, 403, `${DDT}/save`);
      expect(await countCodes(c)).toBe(0);
    });

    it('the create permission passes save; update and delete need their own actions', async () => {
      const writer = token({ permissions: ['configuration-data-dictionary-type:create'] });
      const c = code();
      const saved = await save({ dataDictionaryTypeCode: c }, writer);
      expectSuccess(saved);
      expect(saved.body.data).toBe(true);
      const [record] = (await t.post(`${DDT}/list`, { dataDictionaryTypeCode: c })).data as Json[];
      const update = await t
        .http()
        .put(`${DDT}/updateById`)
        .set('Authorization', writer)
        .send({ dataDictionaryTypeId: record.dataDictionaryTypeId, remark: 'x' });
      expectFailure(update, 403, 403, `${DDT}/updateById`);
      const remove = await t.http().delete(`${DDT}/removeById?id=${record.dataDictionaryTypeId}`).set('Authorization', writer);
      expectFailure(remove, 403, 403, `${DDT}/removeById`);
      const deleter = token({ permissions: ['configuration-data-dictionary-type:delete'] });
      const removed = await t.http().delete(`${DDT}/removeById?id=${record.dataDictionaryTypeId}`).set('Authorization', deleter);
      expectSuccess(removed);
      expect(removed.body.data).toBe(true);
    });

    it('role administrator passes every action without any permission', async () => {
      const admin = token({ roles: ['administrator'] });
      const c = code();
      expectSuccess(await save({ dataDictionaryTypeCode: c }, admin));
      expectSuccess(await page(admin));
      const [record] = (await t.post(`${DDT}/list`, { dataDictionaryTypeCode: c })).data as Json[];
      const updated = await t
        .http()
        .put(`${DDT}/updateById`)
        .set('Authorization', admin)
        .send({ dataDictionaryTypeId: record.dataDictionaryTypeId, remark: 'changed' });
      expectSuccess(updated);
      expect(updated.body.data).toBe(true);
      const removed = await t.http().delete(`${DDT}/removeByIds?ids=${record.dataDictionaryTypeId}`).set('Authorization', admin);
      expectSuccess(removed);
      expect(removed.body.data).toBe(true);
    });
  });

  describe('404: unknown route', () => {
    it.each([
      ['GET', `${DDT}/doesNotExist`],
      ['POST', `${CONFIG}/no-such-resource/page`],
      ['GET', `${DDT}/page`], // page is POST only
      ['PATCH', `${DDT}/updateById`],
      ['GET', '/main-service/nothing/here'],
      ['GET', '/nothing/here'], // outside the service prefix
    ])('%s %s → HTTP 404, body 404, path', async (method, path) => {
      const res = await t.http()[method.toLowerCase() as HttpVerb](path).set('Authorization', bearer());
      expectFailure(res, 404, 404, path);
    });

    it('keeps the path without the query string', async () => {
      const res = await t.http().get(`${DDT}/doesNotExist?x=1`).set('Authorization', bearer());
      expectFailure(res, 404, 404, `${DDT}/doesNotExist`);
    });
  });

  describe('request body failures', () => {
    it('malformed JSON → HTTP 200, body 1004, and nothing is written', async () => {
      const res = await t
        .http()
        .post(`${DDT}/save`)
        .set('Authorization', bearer())
        .set('Content-Type', 'application/json')
        .send('{"dataDictionaryTypeCode": "ddt-malformed",');
      expectFailure(res, 200, 1004, `${DDT}/save`);
      expect(await countCodes('ddt-malformed')).toBe(0);
    });

    it.each<[string, string, Json]>([
      ['a number for a string field', 'save', { dataDictionaryTypeCode: 123 }],
      ['a string for an integer field', 'save', { dataDictionaryTypeCode: 'ddt-wrong-type', sort: '5' }],
      ['an object for a string field', 'save', { dataDictionaryTypeCode: { a: 1 } }],
      ['a string for current', 'page', { current: '1', pageSize: 10 }],
      ['a boolean for a filter', 'count', { dataDictionaryTypeCode: true }],
    ])('wrong JSON type (%s) → HTTP 200, body 1003', async (_name, op, body) => {
      const res = await t.http().post(`${DDT}/${op}`).set('Authorization', bearer()).send(body);
      expectFailure(res, 200, 1003, `${DDT}/${op}`);
      expect(res.body.error).toMatch(/dataDictionaryTypeCode|sort|current/);
    });

    it('a wrongly typed save writes nothing', async () => {
      const res = await save({ dataDictionaryTypeCode: 'ddt-typed', sort: '5' });
      expect(res.body.status).toBe(1003);
      expect(await countCodes('ddt-typed')).toBe(0);
    });

    it('class-validator failure → HTTP 200, body 400, error names the field', async () => {
      const missing = await save({ name: 'No code' });
      expectFailure(missing, 200, 400, `${DDT}/save`);
      expect(missing.body.error).toContain('dataDictionaryTypeCode');

      const tooLong = await save({ dataDictionaryTypeCode: 'x'.repeat(65) });
      expectFailure(tooLong, 200, 400, `${DDT}/save`);
      expect(tooLong.body.error).toContain('dataDictionaryTypeCode');
    });

    it('error names each failing field', async () => {
      const res = await save({ dataDictionaryTypeCode: 'y'.repeat(65), remark: 'r'.repeat(501) });
      expectFailure(res, 200, 400, `${DDT}/save`);
      expect(res.body.error).toContain('dataDictionaryTypeCode');
      expect(res.body.error).toContain('remark');
    });

    const MB = 1024 * 1024;
    const postText = (path: string, text: string) =>
      t.http().post(path).set('Authorization', bearer()).set('Content-Type', 'application/json').send(text);

    it('a body larger than the default 1 MB limit → HTTP 413 envelope, no HTML and no stack, nothing written', async () => {
      const res = await postText(`${DDT}/save`, JSON.stringify({ dataDictionaryTypeCode: 'ddt-huge', remark: 'x'.repeat(MB) }));
      expectFailure(res, 413, 413, `${DDT}/save`);
      expect(res.body.error).toBe('Request body too large');
      expect(res.text).not.toMatch(/<html|<!DOCTYPE|<pre>/i);
      expect(await countCodes('ddt-huge')).toBe(0);
    });

    it('a body just below the default limit is read and validated (400 for the long remark), not refused as too large', async () => {
      const res = await postText(`${DDT}/save`, JSON.stringify({ dataDictionaryTypeCode: 'ddt-big', remark: 'x'.repeat(MB - 100) }));
      expectFailure(res, 200, 400, `${DDT}/save`);
      expect(res.body.error).toContain('remark');
    });

    it('JSON in another charset than UTF-8 → HTTP 415 envelope, nothing written', async () => {
      const res = await t
        .http()
        .post(`${DDT}/save`)
        .set('Authorization', bearer())
        .set('Content-Type', 'application/json; charset=utf-16le')
        .send(Buffer.from(JSON.stringify({ dataDictionaryTypeCode: 'ddt-utf16' }), 'utf16le'));
      expectFailure(res, 415, 415, `${DDT}/save`);
      expect(await countCodes('ddt-utf16')).toBe(0);
    });

    it('importList takes bodies up to 16 MB: above → 413, below → read and validated', async () => {
      const rows = (remark: number) => JSON.stringify([{ dataDictionaryTypeCode: 'ddt-bulk', remark: 'x'.repeat(remark) }]);
      expectFailure(await postText(`${DDT}/importList`, rows(16 * MB)), 413, 413, `${DDT}/importList`);
      const below = await postText(`${DDT}/importList`, rows(15 * MB));
      expectFailure(below, 200, 400, `${DDT}/importList`);
      expect(below.body.error).toContain('remark');
      expect(await countCodes('ddt-bulk')).toBe(0);
    });
  });

  describe('X-Request-Id', () => {
    it('echoes a well-formed incoming value', async () => {
      const res = await page(bearer()).set('X-Request-Id', 'req-2024.abc:42_X');
      expect(res.status).toBe(200);
      expect(res.headers['x-request-id']).toBe('req-2024.abc:42_X');
    });

    it('generates a distinct one when absent', async () => {
      const a = await page(bearer());
      const b = await page(bearer());
      expect(a.headers['x-request-id']).toMatch(/^[A-Za-z0-9._:-]{8,128}$/);
      expect(b.headers['x-request-id']).toMatch(/^[A-Za-z0-9._:-]{8,128}$/);
      expect(a.headers['x-request-id']).not.toBe(b.headers['x-request-id']);
    });

    it('replaces an ill-formed incoming value instead of echoing it', async () => {
      for (const bad of ['has spaces in it', '<script>', 'x'.repeat(500)]) {
        const res = await page(bearer()).set('X-Request-Id', bad);
        expect(res.status).toBe(200);
        expect(res.headers['x-request-id']).toBeTruthy();
        expect(res.headers['x-request-id']).not.toBe(bad);
      }
    });

    it('is present on failures too (401, 404)', async () => {
      const unauthorized = await page(undefined).set('X-Request-Id', 'trace-401');
      expect(unauthorized.status).toBe(401);
      expect(unauthorized.headers['x-request-id']).toBe('trace-401');
      const notFound = await t.http().get(`${DDT}/nope`).set('X-Request-Id', 'trace-404').set('Authorization', bearer());
      expect(notFound.status).toBe(404);
      expect(notFound.headers['x-request-id']).toBe('trace-404');
    });

    it('is present on a 404 outside the service prefix', async () => {
      const res = await t.http().get('/nothing/here').set('X-Request-Id', 'trace-outside');
      expect(res.status).toBe(404);
      expect(res.headers['x-request-id']).toBe('trace-outside');
    });

    it('is present on request-body failures too (1004, 413)', async () => {
      const malformed = await t
        .http()
        .post(`${DDT}/save`)
        .set('Authorization', bearer())
        .set('X-Request-Id', 'trace-1004')
        .set('Content-Type', 'application/json')
        .send('{');
      expect(malformed.body.status).toBe(1004);
      const tooLarge = await t
        .http()
        .post(`${DDT}/save`)
        .set('Authorization', bearer())
        .set('X-Request-Id', 'trace-413')
        .set('Content-Type', 'application/json')
        .send(JSON.stringify({ remark: 'x'.repeat(17 * 1024 * 1024) }));
      expect(tooLarge.status).toBe(413);
      const generated = await t.http().post(`${DDT}/save`).set('Authorization', bearer()).set('Content-Type', 'application/json').send('{');
      expect({
        malformed: malformed.headers['x-request-id'],
        tooLarge: tooLarge.headers['x-request-id'],
        generated: !!generated.headers['x-request-id'],
      }).toEqual({
        malformed: 'trace-1004',
        tooLarge: 'trace-413',
        generated: true,
      });
    });
  });

  describe('OpenAPI document', () => {
    const GROUP_PREFIXES = ['/main-service/system-api/configuration/', '/main-service/main-api/v1/general/configuration/base/'];
    const METHODS = ['get', 'post', 'put', 'delete', 'patch', 'head', 'options'];
    const RESOURCES = [
      'data-dictionary',
      'data-dictionary-map',
      'data-dictionary-table',
      'data-dictionary-type',
      'translation',
      'value-set',
      'value-set-map',
      'value-set-table',
      'value-set-type',
    ];
    const STANDARD: [string, string, string][] = [
      ['post', 'count', 'read'],
      ['get', 'getById', 'read'],
      ['post', 'list', 'read'],
      ['post', 'page', 'read'],
      ['delete', 'removeById', 'delete'],
      ['delete', 'removeByIds', 'delete'],
      ['post', 'save', 'create'],
      ['put', 'updateById', 'update'],
    ];
    const permissionName = (segment: string) => (segment.startsWith('value-set') ? segment : `configuration-${segment}`);

    /** The 88 operations of the configuration group , with their contract.md "Tenancy and access" permission. */
    const expected = new Map<string, string | null>();
    for (const r of RESOURCES)
      for (const [m, op, action] of STANDARD) expected.set(`${m.toUpperCase()} ${CONFIG}/${r}/${op}`, `${permissionName(r)}:${action}`);
    for (const r of ['data-dictionary', 'data-dictionary-type']) expected.set(`POST ${CONFIG}/${r}/listCache`, `${permissionName(r)}:read`);
    for (const r of RESOURCES) expected.set(`POST ${CONFIG}/${r}/importList`, `${permissionName(r)}:create`);
    expected.set(`POST ${CONFIG}/data-dictionary-table/saveOrUpdate`, 'configuration-data-dictionary-table:create');
    expected.set(`POST ${CONFIG}/value-set-table/saveBatch`, 'value-set-table:create');
    expected.set(`POST ${CONFIG}/translation/saveMissing`, null);
    expected.set('GET /main-service/main-api/v1/general/configuration/base/getClientIp', null);
    expected.set('GET /main-service/main-api/v1/general/configuration/base/getCloudServiceInfo', null);
    // beyond the spec's 88: the outcome of an asynchronous import batch (docs/messaging.md), and each resource's recycle bin, export and history
    expected.set(`GET ${CONFIG}/data-dictionary/importStatus`, 'configuration-data-dictionary:read');
    const RECYCLE_BIN: [string, string, string][] = [
      ['post', 'deletedPage', 'read'],
      ['put', 'restoreById', 'update'],
      ['delete', 'purgeByIds', 'delete'],
      ['post', 'export', 'read'],
      ['post', 'historyPage', 'read'],
    ];
    for (const r of RESOURCES)
      for (const [m, op, action] of RECYCLE_BIN) expected.set(`${m.toUpperCase()} ${CONFIG}/${r}/${op}`, `${permissionName(r)}:${action}`);

    let doc: Json;
    let ops: { key: string; method: string; path: string; op: Json }[];

    beforeAll(async () => {
      const res = await t.http().get('/main-service/v3/api-docs');
      expect(res.status).toBe(200);
      doc = res.body;
      ops = Object.entries((doc.paths ?? {}) as Json).flatMap(([path, item]) =>
        METHODS.filter((m) => item[m]).map((m) => ({ key: `${m.toUpperCase()} ${path}`, method: m, path, op: item[m] as Json })),
      );
    });
    const groupOps = () => ops.filter((o) => GROUP_PREFIXES.some((p) => o.path.startsWith(p)));
    const find = (key: string) => {
      const o = ops.find((x) => x.key === key);
      if (!o) throw new Error(`${key} is not in the document`);
      return o.op;
    };

    it('is served without a token as an OpenAPI 3 JSON document', async () => {
      const res = await t.http().get('/main-service/v3/api-docs');
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toMatch(/json/);
      expect(res.body.openapi).toMatch(/^3\./);
      expect(res.body.info?.title).toBeTruthy();
      expect(Object.keys(res.body.paths ?? {}).length).toBeGreaterThan(0);
    });

    it('contains exactly the 88 configuration-group operations (and importStatus, the recycle bins, exports and historyPage) at the right methods', () => {
      expect(expected.size).toBe(89 + RECYCLE_BIN.length * RESOURCES.length);
      expect(
        groupOps()
          .map((o) => o.key)
          .sort(),
      ).toEqual([...expected.keys()].sort());
    });

    it('declares a Bearer security scheme', () => {
      const schemes = Object.values((doc.components?.securitySchemes ?? {}) as Json);
      expect(schemes).toContainEqual(expect.objectContaining({ type: 'http', scheme: 'bearer' }));
    });

    it('every operation except saveMissing requires the Bearer scheme; saveMissing requires none', () => {
      const schemes = (doc.components?.securitySchemes ?? {}) as Json;
      const bearerNames = Object.keys(schemes).filter((n) => schemes[n].type === 'http' && schemes[n].scheme === 'bearer');
      expect(bearerNames.length).toBeGreaterThan(0);
      const missing: string[] = [];
      for (const { key, op } of groupOps()) {
        const names = ((op.security ?? doc.security ?? []) as Json[]).flatMap((s) => Object.keys(s));
        const secured = names.some((n) => bearerNames.includes(n));
        if (key.endsWith('/translation/saveMissing')) expect({ key, secured }).toEqual({ key, secured: false });
        else if (!secured) missing.push(key);
      }
      expect(missing).toEqual([]);
    });

    it('every operation with a permission shows it as x-permission (contract.md "Tenancy and access" names)', () => {
      const actual = Object.fromEntries(groupOps().map((o) => [o.key, (o.op['x-permission'] as string | undefined) ?? null]));
      expect(actual).toEqual(Object.fromEntries(expected));
    });

    it('shows the three permission names of the spec exactly', () => {
      expect(find(`POST ${CONFIG}/data-dictionary-table/page`)['x-permission']).toBe('configuration-data-dictionary-table:read');
      expect(find(`POST ${CONFIG}/data-dictionary-map/save`)['x-permission']).toBe('configuration-data-dictionary-map:create');
      expect(find(`DELETE ${CONFIG}/value-set-table/removeByIds`)['x-permission']).toBe('value-set-table:delete');
    });

    it('mentions the permission in the description of each operation that has one', () => {
      const without = groupOps().filter((o) => o.op['x-permission'] && !String(o.op.description ?? '').includes(o.op['x-permission']));
      expect(without.map((o) => o.key)).toEqual([]);
    });

    it('every POST/PUT operation has a request body with a schema (restoreById takes only its query id)', () => {
      const bad = groupOps()
        .filter((o) => o.method === 'post' || o.method === 'put')
        .filter((o) => !o.path.endsWith('/restoreById'))
        .filter((o) => {
          const content = (o.op.requestBody?.content ?? {}) as Json;
          const media = Object.values(content);
          return media.length === 0 || media.some((m) => !m.schema || Object.keys(m.schema).length === 0);
        });
      expect(bad.map((o) => o.key)).toEqual([]);
    });

    it('every 200 response schema is the envelope with a typed data property (export answers a file; its refusals the envelope)', () => {
      const bad: string[] = [];
      for (const { key, op } of groupOps().filter((o) => !o.path.endsWith('/export'))) {
        const props = (answerSchema(doc, op).properties ?? {}) as Json;
        const ok =
          ENVELOPE_KEYS.every((k) => k in props) &&
          props.data &&
          (props.data.type || props.data.$ref || props.data.allOf || props.data.oneOf || props.data.anyOf);
        if (!ok) bad.push(key);
      }
      expect(bad).toEqual([]);
    });

    it('the page and list operations return arrays of the resource record', () => {
      for (const r of RESOURCES) {
        for (const op of ['page', 'list']) {
          const data = answerSchema(doc, find(`POST ${CONFIG}/${r}/${op}`)).properties.data;
          expect({ key: `${r}/${op}`, type: data.type, items: !!(data.items?.$ref || data.items?.properties) }).toEqual({
            key: `${r}/${op}`,
            type: 'array',
            items: true,
          });
        }
      }
    });

    it('the page operations document extraData current, pages, size and total', () => {
      for (const r of RESOURCES) {
        const extra = answerSchema(doc, find(`POST ${CONFIG}/${r}/page`)).properties.extraData;
        expect({ r, keys: Object.keys(extra?.properties ?? {}).sort() }).toEqual({ r, keys: ['current', 'pages', 'size', 'total'] });
      }
    });

    it('getById and removeById take a required query id; removeByIds a required repeated ids', () => {
      for (const r of RESOURCES) {
        for (const [m, op, name] of [
          ['GET', 'getById', 'id'],
          ['DELETE', 'removeById', 'id'],
          ['DELETE', 'removeByIds', 'ids'],
        ]) {
          const params = (find(`${m} ${CONFIG}/${r}/${op}`).parameters ?? []) as Json[];
          const p = params.find((x) => x.name === name && x.in === 'query');
          expect({ op: `${r}/${op}`, required: p?.required }).toEqual({ op: `${r}/${op}`, required: true });
          if (name === 'ids') expect(p?.schema?.type).toBe('array');
        }
      }
    });

    it('operationIds are unique and every $ref resolves', () => {
      const ids = ops.map((o) => o.op.operationId).filter(Boolean);
      expect(ids.length).toBe(ops.length);
      expect(new Set(ids).size).toBe(ids.length);
      const refs = [...JSON.stringify(doc).matchAll(/"\$ref":"#\/components\/schemas\/([^"]+)"/g)].map((m) => m[1]);
      const schemas = (doc.components?.schemas ?? {}) as Json;
      expect([...new Set(refs.filter((r) => !(r in schemas)))]).toEqual([]);
    });

    it('Swagger UI is served as HTML without a token', async () => {
      const res = await t.http().get('/main-service/swagger-ui/');
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toMatch(/text\/html/);
      expect(res.text).toMatch(/swagger-ui/i);
    });
  });
});

describe('RS256 tokens (JWT_PUBLIC_KEY, own app instance)', () => {
  const pair = () => generateKeyPairSync('rsa', { modulusLength: 2048 });
  const issuer = pair();
  const pem = issuer.publicKey.export({ type: 'spki', format: 'pem' }) as string;
  const claims = { sub: 'alice', tenantId: 'tenant-a', roles: ['administrator'], permissions: [] };
  const rs256 = (key: KeyObject) => `Bearer ${sign(claims, key, { algorithm: 'RS256', expiresIn: 600 })}`;
  let t: TestApp;
  beforeAll(async () => (t = await startApp({ JWT_PUBLIC_KEY: pem.replace(/\n/g, '\\n') })));
  afterAll(async () => t?.close());

  const count = (authorization: string) => t.http().post(`${DDT}/count`).set('Authorization', authorization).send({});

  it("accepts a token signed with the identity provider's private key", async () => {
    const res = await count(rs256(issuer.privateKey));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 200 });
  });

  it.each([
    ['signed with another private key', () => rs256(pair().privateKey)],
    ['HS256 with the shared secret (no downgrade to a secret)', () => bearer()],
  ])('refuses a token %s (401)', async (_why, token) => {
    const res = await count(token());
    expectFailure(res, 401, 401, `${DDT}/count`);
  });
});

describe('storage unavailable (own app instance, last)', () => {
  let t: TestApp;
  let errorLog: jest.SpyInstance;
  beforeAll(async () => (t = await startApp()));
  afterAll(async () => {
    errorLog?.mockRestore();
    // let the app shut down normally (and its test database be dropped)
    if (t && !t.dataSource.isInitialized) await t.dataSource.initialize().catch(() => undefined);
    await t?.close();
  });

  it('page → HTTP 503, body 503, without SQL or stack trace; so are other operations', async () => {
    const before = await t.post(`${DDT}/save`, { dataDictionaryTypeCode: 'ddt-before-outage' });
    expect(before).toMatchObject({ status: 200, data: true });
    await t.dataSource.destroy();
    errorLog = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);

    const res = await t
      .http()
      .post(`${DDT}/page`)
      .set('Authorization', bearer())
      .set('X-Request-Id', 'outage-trace-1')
      .send({ current: 1, pageSize: 10 });
    expectFailure(res, 503, 503, `${DDT}/page`);

    for (const [method, path, body] of [
      ['post', `${DDT}/save`, { dataDictionaryTypeCode: 'ddt-during-outage' }],
      ['post', `${DDT}/count`, {}],
      ['get', `${DDT}/getById?id=abc`, undefined],
    ] as const) {
      const r = await t.http()[method](path).set('Authorization', bearer()).send(body);
      expectFailure(r, 503, 503, path.split('?')[0]);
    }
  });

  it('the fault is logged with the request id and without SQL', () => {
    const lines = errorLog.mock.calls.map((c) => c.map(String).join(' '));
    const line = lines.find((l) => l.includes('outage-trace-1'));
    expect(line).toBeDefined();
    expect(line).not.toMatch(/\bSELECT\b|\bFROM\b|\bWHERE\b/);
  });

  it('recovers when storage is back, and the write refused during the outage left nothing behind', async () => {
    await t.dataSource.initialize();
    const during = await t.post(`${DDT}/count`, { dataDictionaryTypeCode: 'ddt-during-outage' });
    expect(during).toMatchObject({ httpStatus: 200, status: 200, data: 0 });
    // SQLite in memory starts empty again; MySQL/MariaDB keeps the record saved before the outage
    if (usingMysql()) expect((await t.post(`${DDT}/count`, { dataDictionaryTypeCode: 'ddt-before-outage' })).data).toBe(1);
  });
});
