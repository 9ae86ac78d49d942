/**
 * Request-body edges every operation shares: null means "not given", nesting depth bound, lone UTF-16
 * surrogates and bytes that are not UTF-8, an array where an object is expected (and the reverse), and the
 * removeByIds bound of 1,000 ids that the query-string parser must not hide by truncating.
 */
import { DEVICE_API, DeviceTestApp, SECRET, SERVER_API, startDeviceApp, uniqueNo } from '../../support/device-app';
import { JsonOperation, jsonOperations } from '../../support/openapi-walk';
import { ALL_RESOURCES } from '../../support/tables';
import { CONFIG, Envelope, startApp, TestApp } from '../../support/test-app';
import { budget } from '../../support/time-budget';
import type { Json } from '../../support/json';

const DD = `${CONFIG}/data-dictionary`;
const EMAIL = '/main-service/system-api/message/email';
const DEPTH = 5_000;
let counter = 0;
const seed = (): string => `be${String(++counter).padStart(4, '0')}`;
const dd = (s: string): Json => ({
  dataDictionaryTypeCode: `ddt-${s}`,
  dataDictionaryCode: `code-${s}`,
  value: `value-${s}`,
  name: `Name ${s}`,
  sort: 3,
});

/** JSON text of `levels` nested arrays or objects, built as text (JSON.stringify would recurse). */
const deepJson = (kind: 'array' | 'object', levels = DEPTH): string =>
  kind === 'array' ? '['.repeat(levels) + ']'.repeat(levels) : '{"a":'.repeat(levels) + '1' + '}'.repeat(levels);

const expectRefused = (res: Envelope, status: number, path: string, mentions?: string) => {
  expect(res).toMatchObject({ httpStatus: 200, status, path, data: null });
  if (mentions) expect(res.error).toContain(mentions);
};

describe('request-body edges, main-service', () => {
  let t: TestApp;
  beforeAll(async () => (t = await startApp()));
  afterAll(() => t?.close());

  const raw = async (method: 'post' | 'put', path: string, text: string): Promise<Envelope> => {
    const res = await t.http()[method](path).set('Authorization', t.auth()).set('Content-Type', 'application/json').send(text);
    return { ...res.body, httpStatus: res.status };
  };
  const count = async (path: string, body: Json = {}): Promise<number> => (await t.post(`${path}/count`, body)).data;
  const find = async (s: string): Promise<Json | undefined> => (await t.post(`${DD}/list`, { dataDictionaryTypeCode: `ddt-${s}` })).data[0];

  describe('null means "not given"', () => {
    it('save with null optional fields, identifier and draft stores the defaults', async () => {
      const s = seed();
      expect(await t.post(`${DD}/save`, { ...dd(s), dataDictionaryId: null, sort: null, remark: null, tenantId: null })).toMatchObject({
        status: 200,
        data: true,
      });
      expect(await find(s)).toMatchObject({ ...dd(s), sort: expect.any(Number), remark: null, revision: 1, tenantId: 'tenant-a' });
      const tr = { language: 'en', namespace: `ns${seed()}`, key: 'k', value: 'v', draft: null };
      expect(await t.post(`${CONFIG}/translation/save`, tr)).toMatchObject({ status: 200, data: true });
    });

    it('updateById: revision null is not a stale revision; null keeps the stored value', async () => {
      const s = seed();
      await t.post(`${DD}/save`, dd(s));
      const rec = (await find(s))!;
      expect(
        await t.put(`${DD}/updateById`, {
          dataDictionaryId: rec.dataDictionaryId,
          revision: null,
          name: 'renamed',
          value: null,
          sort: null,
        }),
      ).toMatchObject({ status: 200, data: true });
      expect(await find(s)).toMatchObject({ name: 'renamed', value: rec.value, sort: rec.sort, revision: 2 });
    });

    it('a required field given as null is missing (400 naming it); nothing is written', async () => {
      const s = seed();
      const before = await count(DD);
      expectRefused(await t.post(`${DD}/save`, { ...dd(s), dataDictionaryCode: null }), 400, `${DD}/save`, 'dataDictionaryCode');
      expectRefused(await t.put(`${DD}/updateById`, { dataDictionaryId: null, name: 'x' }), 400, `${DD}/updateById`, 'dataDictionaryId');
      expect(await count(DD)).toBe(before);
    });

    it('a null array element stays a value: toAddresses [null] is refused', async () => {
      const email = ALL_RESOURCES.find((r) => r.segment === 'email')!.sample(seed());
      const before = await count(EMAIL);
      const res = await t.post(`${EMAIL}/save`, { ...email, toAddresses: [null] });
      expect(res).toMatchObject({ httpStatus: 200, data: null });
      expect([400, 1003]).toContain(res.status);
      expect(res.error).toContain('toAddresses');
      expect(await count(EMAIL)).toBe(before);
    });

    it('null rows of a batch (elements of the array body) are still refused as rows', async () => {
      expectRefused(await t.post(`${CONFIG}/value-set-table/saveBatch`, [null]), 1003, `${CONFIG}/value-set-table/saveBatch`);
    });
  });

  describe(`nesting deeper than the bound (${DEPTH} levels) → 400 before any conversion; nothing is written`, () => {
    it.each(['array', 'object'] as const)('deep %s on save, list, page, importList and updateById', async (kind) => {
      const before = await count(DD);
      const deep = deepJson(kind);
      expectRefused(
        await raw('post', `${DD}/save`, `{"dataDictionaryTypeCode":"x","dataDictionaryCode":"y","name":${deep}}`),
        400,
        `${DD}/save`,
        'nests deeper',
      );
      expectRefused(await raw('post', `${DD}/save`, deep), 400, `${DD}/save`, 'nests deeper');
      expectRefused(await raw('post', `${DD}/list`, `{"sqlQuerySorter":${deep}}`), 400, `${DD}/list`, 'nests deeper');
      expectRefused(await raw('post', `${DD}/page`, deep), 400, `${DD}/page`, 'nests deeper');
      expectRefused(await raw('post', `${DD}/importList`, `[${deep}]`), 400, `${DD}/importList`, 'nests deeper');
      expectRefused(
        await raw('put', `${DD}/updateById`, `{"dataDictionaryId":"abc","name":${deep}}`),
        400,
        `${DD}/updateById`,
        'nests deeper',
      );
      expect(await count(DD)).toBe(before);
    });

    it('an ordinary nested body (sqlQuerySorter) is unaffected', async () => {
      expect(await t.post(`${DD}/list`, { sqlQuerySorter: { field: 'sort', order: 'ascend' }, sqlQueryLimit: 1 })).toMatchObject({
        status: 200,
      });
    });
  });

  describe('lone UTF-16 surrogates → 400 (they have no UTF-8 form; MariaDB would store U+FFFD)', () => {
    it('in a key value, a free text, a list item and a property name; nothing is written', async () => {
      const before = await count(DD);
      for (const code of ['a\ud800', 'a\udfff', 'a\ud800b']) {
        expectRefused(
          await t.post(`${DD}/save`, { ...dd(seed()), dataDictionaryCode: code }),
          400,
          `${DD}/save`,
          'dataDictionaryCode: the text must not contain a lone UTF-16 surrogate',
        );
      }
      expectRefused(await t.post(`${DD}/save`, { ...dd(seed()), remark: 'x\udc00' }), 400, `${DD}/save`, 'remark');
      expectRefused(await t.post(`${DD}/importList`, [dd(seed()), { ...dd(seed()), name: '\ud83d' }]), 400, `${DD}/importList`, '[1].name');
      expectRefused(
        await raw('post', `${DD}/save`, `{"dataDictionaryTypeCode":"t","dataDictionaryCode":"c","\\ud800":1}`),
        400,
        `${DD}/save`,
        'property name',
      );
      expectRefused(await t.post(`${DD}/list`, { dataDictionaryCode: '\ud800' }), 400, `${DD}/list`);
      expect(await count(DD)).toBe(before);
      const email = ALL_RESOURCES.find((r) => r.segment === 'email')!.sample(seed());
      expectRefused(
        await t.post(`${EMAIL}/save`, { ...email, toAddresses: ['a\ud800@example.com'] }),
        400,
        `${EMAIL}/save`,
        'toAddresses[0]',
      );
    });

    it('well-formed text beyond the BMP (surrogate pairs) is stored and read back unchanged', async () => {
      const s = seed();
      expect(await t.post(`${DD}/save`, { ...dd(s), name: 'smile 😀 𝄞 中文' })).toMatchObject({ status: 200, data: true });
      expect(await find(s)).toMatchObject({ name: 'smile 😀 𝄞 中文' });
    });
  });

  describe('bytes that are not UTF-8 → HTTP 415, status 415 (decoding would store U+FFFD, so distinct inputs would collide)', () => {
    const T = `${CONFIG}/translation`;
    const DEFAULT_ADMIN = { tenantId: 'default', sub: 'root' };
    const NOT_UTF8 = Buffer.from([0xff, 0x80]);
    const bytes = (...parts: (string | Buffer)[]) => Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p) : p)));
    const sendBytes = async (path: string, type: string, body: Buffer): Promise<Envelope> => {
      // as the bytes they are: superagent would serialise a Buffer as JSON
      const res = await t
        .http()
        .post(path)
        .set('Authorization', t.auth())
        .set('Content-Type', type)
        .serialize((b) => b)
        .send(body);
      return { ...res.body, httpStatus: res.status };
    };
    const refusedAs415 = (res: Envelope, path: string) =>
      expect(res).toMatchObject({ httpStatus: 415, status: 415, error: 'Request body is not valid UTF-8', path, data: null });

    it('FF 80 in a JSON string value or property name: refused, nothing is written; the same text as UTF-8 is stored', async () => {
      const s = seed();
      const before = await count(DD);
      const record = (name: Buffer) => bytes(`{"dataDictionaryTypeCode":"ddt-${s}","dataDictionaryCode":"c-${s}","name":"`, name, '"}');
      refusedAs415(await sendBytes(`${DD}/save`, 'application/json', record(NOT_UTF8)), `${DD}/save`);
      refusedAs415(
        await sendBytes(
          `${DD}/save`,
          'application/json',
          bytes(`{"dataDictionaryTypeCode":"ddt-${s}","dataDictionaryCode":"c","`, NOT_UTF8, '":1}'),
        ),
        `${DD}/save`,
      );
      refusedAs415(await sendBytes(`${DD}/importList`, 'application/json', bytes('[', record(NOT_UTF8), ']')), `${DD}/importList`);
      expect(await count(DD)).toBe(before);
      // what decoding FF 80 would have stored
      expect(await sendBytes(`${DD}/save`, 'application/json', record(Buffer.from('\ufffd\ufffd')))).toMatchObject({ status: 200 });
      expect(await find(s)).toMatchObject({ name: '\ufffd\ufffd' });
    });

    it('in a form body (saveMissing), as bytes or as %XX escapes: refused, nothing is written', async () => {
      const ns = `utf${seed()}`;
      const path = `${T}/saveMissing?lng=en&ns=${ns}`;
      const form = 'application/x-www-form-urlencoded';
      refusedAs415(await sendBytes(path, form, bytes('key.a=', NOT_UTF8)), `${T}/saveMissing`);
      refusedAs415(await sendBytes(path, form, Buffer.from('key.b=%FF%80')), `${T}/saveMissing`);
      refusedAs415(await sendBytes(path, form, Buffer.from('key%FF.c=v')), `${T}/saveMissing`);
      expect((await t.post(`${T}/count`, { namespace: ns }, DEFAULT_ADMIN)).data).toBe(0);
      // UTF-8, as bytes and escaped, is taken
      expect(await sendBytes(path, form, Buffer.from('key.d=%C3%A9t%C3%A9&key.e=été'))).toMatchObject({ httpStatus: 200, status: 200 });
      const stored = (await t.post(`${T}/list`, { namespace: ns }, DEFAULT_ADMIN)).data.map((r: Json) => [r.key, r.value]);
      expect(stored.sort()).toEqual([
        ['key.d', 'été'],
        ['key.e', 'été'],
      ]);
    });
  });

  describe('an array where an object is expected, and the reverse → 1003 on every operation', () => {
    let ops: JsonOperation[];
    beforeAll(async () => (ops = jsonOperations((await t.http().get('/main-service/v3/api-docs')).body)));

    it('every JSON operation of the document', async () => {
      expect(ops.length).toBeGreaterThan(50);
      const answers: string[] = [];
      for (const op of ops) {
        const query = op.query.map((name) => `${name}=${name === 'lng' ? 'en' : 'common'}`).join('&');
        for (const body of op.arrayBody ? [{}, { rows: [] }] : [[], [{}], [{ name: 'x' }]]) {
          const res = await t
            .http()
            [op.method](query ? `${op.path}?${query}` : op.path)
            .set('Authorization', t.auth())
            .send(body);
          answers.push(`${op.method} ${op.path} ${JSON.stringify(body)} → ${res.status} ${res.body.status}`);
        }
      }
      expect(answers.filter((a) => !a.endsWith('→ 200 1003'))).toEqual([]);
    });
  });

  describe('removeByIds takes at most 1,000 ids and never truncates', () => {
    const removeByIds = (ids: string[]) => t.del(`${DD}/removeByIds?${ids.map((id) => `ids=${encodeURIComponent(id)}`).join('&')}`);
    const saveMany = async (n: number): Promise<string[]> => {
      const s = seed();
      const rows = Array.from({ length: n }, (_, i) => dd(`${s}-${i}`));
      expect(await t.post(`${DD}/importList`, rows)).toMatchObject({ status: 200 });
      await t.drainOutbox();
      const listed = await t.post(`${DD}/list`, { sqlQueryLimit: 10_000 });
      return (listed.data as Json[]).filter((r) => r.dataDictionaryTypeCode.startsWith(`ddt-${s}-`)).map((r) => r.dataDictionaryId);
    };

    it('1,001 ids → 400 and nothing is deleted (the 1,001st id included)', async () => {
      const [first, last] = await saveMany(2);
      // short unknown ids keep the request line small; the live records sit first and 1,001st
      const ids = [first, ...Array.from({ length: 999 }, (_, i) => `n${i}`), last];
      const before = await count(DD);
      expectRefused(await removeByIds(ids), 400, `${DD}/removeByIds`, '1000');
      expect(await count(DD)).toBe(before);
      for (const id of [first, last]) expect((await t.get(`${DD}/getById?id=${id}`)).data).toMatchObject({ dataDictionaryId: id });
    });

    it(
      'exactly 1,000 generated (21-character) ids → all deleted',
      async () => {
        const ids = await saveMany(1000);
        expect(ids).toHaveLength(1000);
        expect(ids.every((id) => id.length === 21)).toBe(true);
        const before = await count(DD);
        const res = await removeByIds(ids);
        expect({ http: res.httpStatus, status: res.status, data: res.data }).toEqual({ http: 200, status: 200, data: true });
        expect(await count(DD)).toBe(before - 1000);
      },
      budget(60_000),
    );
  });
});

describe('request-body edges, device-service', () => {
  let t: DeviceTestApp;
  let device: string;
  let token: string;
  beforeAll(async () => {
    t = await startDeviceApp();
    device = await t.register('device', uniqueNo('bed'), SECRET);
    token = await t.token('device', device, SECRET);
  });
  afterAll(() => t?.close());

  const PUSH = `${DEVICE_API}/pushInfoByDataAcquisitionDeviceNo`;
  const push = async (text: string): Promise<Envelope> => {
    const res = await t
      .http()
      .post(PUSH)
      .query({ dataAcquisitionDeviceNo: device, token })
      .set('Content-Type', 'application/json')
      .send(text);
    return { ...res.body, httpStatus: res.status };
  };
  const stored = async () =>
    (await t.call('get', `${DEVICE_API}/getByDataAcquisitionDeviceNo`, { dataAcquisitionDeviceNo: device, token })).data;

  it.each(['array', 'object'] as const)('pushInfo with a deep %s → 400; the stored report is unchanged', async (kind) => {
    expect(await push(JSON.stringify({ firmwareVersion: '1.0.0' }))).toMatchObject({ status: 200 });
    expectRefused(await push(`{"firmwareVersion":"2.0.0","model":${deepJson(kind)}}`), 400, PUSH, 'nests deeper');
    expectRefused(await push(deepJson(kind)), 400, PUSH, 'nests deeper');
    expect(await stored()).toMatchObject({ firmwareVersion: '1.0.0' });
  });

  it('pushInfo with a lone surrogate → 400; an array body → 1003; null fields are not given', async () => {
    expectRefused(await push(JSON.stringify({ firmwareVersion: '3.0.0', model: 'x\ud800' })), 400, PUSH, 'model');
    expectRefused(await push('[]'), 1003, PUSH);
    expectRefused(await push('[{"firmwareVersion":"3.0.0"}]'), 1003, PUSH);
    expect(await push(JSON.stringify({ firmwareVersion: '3.0.0', model: null, batteryLevel: null }))).toMatchObject({
      status: 200,
      data: true,
    });
    expect(await stored()).toMatchObject({ firmwareVersion: '3.0.0' });
  });

  it('updateInternalIp: an array body → 1003, a deep body → 400, a lone surrogate → 400', async () => {
    const server = await t.register('server', uniqueNo('bes'), SECRET);
    const serverToken = await t.token('server', server, SECRET);
    const path = `${SERVER_API}/updateInternalIpByDataAcquisitionServerNo`;
    const put = async (text: string): Promise<Envelope> => {
      const res = await t
        .http()
        .put(path)
        .query({ dataAcquisitionServerNo: server, token: serverToken })
        .set('Content-Type', 'application/json')
        .send(text);
      return { ...res.body, httpStatus: res.status };
    };
    expectRefused(await put('[{"internalIp":"10.0.4.17"}]'), 1003, path);
    expectRefused(await put(`{"internalIp":${deepJson('object')}}`), 400, path, 'nests deeper');
    expectRefused(await put('{"internalIp":"10.0.4.17","x":"\\ud800"}'), 400, path, 'surrogate');
    expect(await put('{"internalIp":"10.0.4.17"}')).toMatchObject({ status: 200 });
  });

  it('an array where an object is expected → 1003 on every JSON operation of the registry', async () => {
    const ops = jsonOperations((await t.http().get('/device-service/v3/api-docs')).body).filter((op) => op.path.includes('/system-api/'));
    expect(ops.length).toBeGreaterThan(5);
    const answers: string[] = [];
    for (const op of ops) {
      const res = await t.http()[op.method](op.path).set('Authorization', t.auth()).send([{}]);
      answers.push(`${op.method} ${op.path} → ${res.status} ${res.body.status}`);
    }
    expect(answers.filter((a) => !a.endsWith('→ 200 1003'))).toEqual([]);
  });
});
