/**
 * listCache (tenant + default-tenant merge, TTL, invalidation), translation importList (XLSX upload),
 * translation saveMissing driven by the real i18next + i18next-http-backend client, localizedError,
 * and the two general operations getClientIp / getCloudServiceInfo.
 * Expected behaviour: docs/contract.md and docs/decisions.md.
 */
import { createServer, request as httpRequest, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { Workbook } from 'exceljs';
import i18next from 'i18next';
import HttpBackend from 'i18next-http-backend';
import { DataDictionary } from '../../../apps/main-service/src/configuration/data-dictionary/data-dictionary.entity';
import { DataDictionaryType } from '../../../apps/main-service/src/configuration/data-dictionary-type/data-dictionary-type.entity';
import { CONFIG, Envelope, startApp, TestApp } from '../../support/test-app';
import { budget } from '../../support/time-budget';
import { Claims } from '../../support/tokens';
import type { Json } from '../../support/json';

const DEFAULT: Claims = { tenantId: 'default', sub: 'root' };
const TENANT_B: Claims = { tenantId: 'tenant-b', sub: 'bert' };
const NODES = [
  { name: 'east-1', domain: 'https://east.example.com', region: 'cn-east' },
  { name: 'west-1', domain: 'https://west.example.com', region: 'cn-west' },
];
const SAVE_MISSING = `${CONFIG}/translation/saveMissing`;
const GENERAL = '/main-service/main-api/v1/general/configuration/base';

let counter = 0;
/** Letters and digits only (usable inside language subtags and keys); unique per call. */
const seed = (): string => `s${++counter}x${Date.now().toString(36)}`;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls until `probe` yields a value (bounded). */
async function eventually<T>(probe: () => Promise<T | undefined>, what: string, timeoutMs = 5000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(25);
  }
}

const envelopeOf = (res: { body: Json; status: number }): Envelope => ({ ...(res.body as Envelope), httpStatus: res.status });

function expectFailure(res: Envelope, status: number, path: string, httpStatus = 200): void {
  expect(res).toMatchObject({ httpStatus, status, path, data: null });
  expect(typeof res.error).toBe('string');
}

describe('listCache, translations and the general operations', () => {
  /**
   * main: a long listCache TTL, TRUST_PROXY loopback, two cloud nodes; listens on a real port for i18next.
   * fresh: no listCache TTL, TRUST_PROXY false, saveMissing switched off.
   * limited: saveMissing rate limit of 3 per minute.
   */
  let main: TestApp;
  let fresh: TestApp;
  let limited: TestApp;
  let baseUrl: string;

  // three apps, each migrating its own database on MariaDB
  beforeAll(async () => {
    // one after the other: startApp sets process.env while the app boots
    main = await startApp({ LIST_CACHE_TTL_SECONDS: '3600', TRUST_PROXY: 'loopback', CLOUD_SERVICE_NODES: JSON.stringify(NODES) });
    fresh = await startApp({ LIST_CACHE_TTL_SECONDS: '0', TRUST_PROXY: 'false', SAVE_MISSING_ENABLED: 'false' });
    limited = await startApp({ SAVE_MISSING_RATE_LIMIT: '3' });
    await main.app.listen(0, '127.0.0.1');
    baseUrl = `http://127.0.0.1:${(main.app.getHttpServer().address() as AddressInfo).port}`;
  }, budget(90_000));
  afterAll(async () => {
    await Promise.all([main, fresh, limited].filter(Boolean).map((t) => t.close()));
  });

  // ---------------------------------------------------------------------------------------------
  // listCache
  // ---------------------------------------------------------------------------------------------

  interface CachedResource {
    segment: string;
    idField: string;
    entity: typeof DataDictionary | typeof DataDictionaryType;
    keyFields: string[];
    /** A record of test seed s with key "code" (distinct codes give distinct uniqueness keys). */
    record: (s: string, code: string, extra?: Json) => Json;
    /** Does a record belong to seed s? */
    mine: (s: string) => (x: Json) => boolean;
    /** The listCache body selecting exactly one record of seed s. */
    exactFilter: (s: string, code: string) => Json;
  }

  const CACHED: CachedResource[] = [
    {
      segment: 'data-dictionary',
      idField: 'dataDictionaryId',
      entity: DataDictionary,
      keyFields: ['dataDictionaryTypeCode', 'dataDictionaryCode'],
      record: (s, code, extra = {}) => ({
        dataDictionaryTypeCode: s,
        dataDictionaryCode: code,
        value: `v-${code}`,
        name: `Name ${code}`,
        sort: 1,
        ...extra,
      }),
      mine: (s) => (x) => x.dataDictionaryTypeCode === s,
      exactFilter: (s, code) => ({ dataDictionaryTypeCode: s, dataDictionaryCode: code }),
    },
    {
      segment: 'data-dictionary-type',
      idField: 'dataDictionaryTypeId',
      entity: DataDictionaryType,
      keyFields: ['dataDictionaryTypeCode'],
      record: (s, code, extra = {}) => ({ dataDictionaryTypeCode: `${s}-${code}`, name: `Name ${code}`, sort: 1, ...extra }),
      mine: (s) => (x) => String(x.dataDictionaryTypeCode).startsWith(`${s}-`),
      exactFilter: (s, code) => ({ dataDictionaryTypeCode: `${s}-${code}` }),
    },
  ];

  let directIds = 0;
  /** A live row written straight into the table, bypassing the service (and so its cache invalidation). */
  /** The reads of the resource's table from now on, counted. */
  function tableReads(t: TestApp, r: CachedResource): () => number {
    const table = t.dataSource.getMetadata(r.entity).tableName;
    const logged = jest.spyOn(t.dataSource.logger, 'logQuery');
    const start = logged.mock.calls.length;
    const from = new RegExp(`\\bFROM\\s+[\`"]${table}[\`"]`, 'i');
    return () => logged.mock.calls.slice(start).filter(([sql]) => /^\s*SELECT/i.test(sql) && from.test(sql)).length;
  }

  async function insertDirectly(t: TestApp, r: CachedResource, tenantId: string, body: Json): Promise<void> {
    const now = Date.now();
    const id = `direct${String(++directIds).padStart(15, '0')}`;
    await t.dataSource.getRepository(r.entity).insert({
      ...body,
      [r.idField]: id,
      tenantId,
      revision: 1,
      createdUsername: 'sql',
      createdTime: now,
      lastModifiedUsername: 'sql',
      lastModifiedTime: now,
      deleteTime: null,
    } as never);
  }

  describe.each(CACHED)('$segment/listCache', (r) => {
    const P = `${CONFIG}/${r.segment}`;
    const codeOf = (x: Json): string =>
      r.segment === 'data-dictionary' ? x.dataDictionaryCode : String(x.dataDictionaryTypeCode).split('-').pop()!;

    async function save(t: TestApp, body: Json, claims?: Claims): Promise<void> {
      expect(await t.post(`${P}/save`, body, claims)).toMatchObject({ status: 200, data: true });
    }
    async function cached(t: TestApp, s: string, claims?: Claims, body: Json = {}): Promise<Json[]> {
      const res = await t.post(`${P}/listCache`, body, claims);
      expect(res).toMatchObject({ httpStatus: 200, status: 200 });
      expect(Array.isArray(res.data)).toBe(true);
      return (res.data as Json[]).filter(r.mine(s));
    }
    /** [code, owning tenant, name] of seed s's records in a tenant's listCache, sorted by code. */
    async function view(t: TestApp, s: string, claims?: Claims, body: Json = {}): Promise<[string, string, string][]> {
      return (await cached(t, s, claims, body))
        .map((x) => [codeOf(x), x.tenantId, x.name] as [string, string, string])
        .sort((a, b) => a[0].localeCompare(b[0]));
    }
    async function idOf(t: TestApp, s: string, code: string, claims?: Claims): Promise<string> {
      const res = await t.post(`${P}/list`, r.exactFilter(s, code), claims);
      expect(res.data).toHaveLength(1);
      return res.data[0][r.idField];
    }

    it("merges the default tenant's records; the tenant's own record wins on the same key; others see only default's", async () => {
      const s = seed();
      await save(main, r.record(s, 'shared', { name: 'D shared' }), DEFAULT);
      await save(main, r.record(s, 'over', { name: 'D over' }), DEFAULT);
      await save(main, r.record(s, 'over', { name: 'A over' }));
      await save(main, r.record(s, 'own', { name: 'A own' }));
      await save(main, r.record(s, 'bonly', { name: 'B only' }), TENANT_B);

      expect(await view(main, s)).toEqual([
        ['over', 'tenant-a', 'A over'],
        ['own', 'tenant-a', 'A own'],
        ['shared', 'default', 'D shared'],
      ]);
      expect(await view(main, s, TENANT_B)).toEqual([
        ['bonly', 'tenant-b', 'B only'],
        ['over', 'default', 'D over'],
        ['shared', 'default', 'D shared'],
      ]);
      expect(await view(main, s, { tenantId: 'tenant-c' })).toEqual([
        ['over', 'default', 'D over'],
        ['shared', 'default', 'D shared'],
      ]);
      expect(await view(main, s, DEFAULT)).toEqual([
        ['over', 'default', 'D over'],
        ['shared', 'default', 'D shared'],
      ]);
      // list (not cached) reads the tenant's own records only
      const own = (await main.post(`${P}/list`, {})).data as Json[];
      expect(own.filter(r.mine(s)).map(codeOf).sort()).toEqual(['over', 'own']);
    });

    it("a write in the tenant or in the default tenant is visible in the tenant's listCache right away", async () => {
      const s = seed();
      await save(main, r.record(s, 'base', { name: 'D base' }), DEFAULT);
      expect(await view(main, s)).toEqual([['base', 'default', 'D base']]);
      expect(await view(main, s, TENANT_B)).toEqual([['base', 'default', 'D base']]);

      await save(main, r.record(s, 'mine', { name: 'A mine' }));
      expect(await view(main, s)).toEqual([
        ['base', 'default', 'D base'],
        ['mine', 'tenant-a', 'A mine'],
      ]);
      // a write of tenant-a leaves tenant-b's merged list as it was
      expect(await view(main, s, TENANT_B)).toEqual([['base', 'default', 'D base']]);

      await save(main, r.record(s, 'later', { name: 'D later' }), DEFAULT);
      expect((await view(main, s)).map((v) => v[0])).toEqual(['base', 'later', 'mine']);
      expect((await view(main, s, TENANT_B)).map((v) => v[0])).toEqual(['base', 'later']);

      const baseId = await idOf(main, s, 'base', DEFAULT);
      expect(await main.put(`${P}/updateById`, { [r.idField]: baseId, name: 'D base v2' }, DEFAULT)).toMatchObject({
        status: 200,
        data: true,
      });
      expect((await view(main, s)).find((v) => v[0] === 'base')).toEqual(['base', 'default', 'D base v2']);
      expect((await view(main, s, TENANT_B)).find((v) => v[0] === 'base')).toEqual(['base', 'default', 'D base v2']);

      // the tenant overrides a default record, then deletes its override: default's shows again
      await save(main, r.record(s, 'base', { name: 'A base' }));
      expect((await view(main, s)).find((v) => v[0] === 'base')).toEqual(['base', 'tenant-a', 'A base']);
      const overrideId = await idOf(main, s, 'base');
      expect(await main.del(`${P}/removeById?id=${overrideId}`)).toMatchObject({ status: 200, data: true });
      expect((await view(main, s)).find((v) => v[0] === 'base')).toEqual(['base', 'default', 'D base v2']);

      expect(await main.del(`${P}/removeById?id=${await idOf(main, s, 'later', DEFAULT)}`, DEFAULT)).toMatchObject({
        status: 200,
        data: true,
      });
      expect((await view(main, s)).map((v) => v[0])).toEqual(['base', 'mine']);
      expect((await view(main, s, TENANT_B)).map((v) => v[0])).toEqual(['base']);
    });

    it("another tenant can't update or delete the default tenant's records", async () => {
      const s = seed();
      await save(main, r.record(s, 'locked', { name: 'D locked' }), DEFAULT);
      const id = await idOf(main, s, 'locked', DEFAULT);
      expect(await view(main, s)).toEqual([['locked', 'default', 'D locked']]);

      expect(await main.put(`${P}/updateById`, { [r.idField]: id, name: 'hacked' })).toMatchObject({ status: 200, data: false });
      expect(await main.put(`${P}/updateById`, { [r.idField]: id, name: 'hacked', tenantId: 'default' })).toMatchObject({
        status: 200,
        data: false,
      });
      expect(await main.del(`${P}/removeById?id=${id}`)).toMatchObject({ status: 200, data: false });
      expect(await main.del(`${P}/removeByIds?ids=${id}`)).toMatchObject({ status: 200, data: false });
      expect(await main.get(`${P}/getById?id=${id}`)).toMatchObject({ status: 200, data: null });

      expect(await main.get(`${P}/getById?id=${id}`, DEFAULT)).toMatchObject({
        status: 200,
        data: { name: 'D locked', revision: 1, deleteTime: null },
      });
      expect(await view(main, s)).toEqual([['locked', 'default', 'D locked']]);
      expect(await view(main, s, TENANT_B)).toEqual([['locked', 'default', 'D locked']]);
    });

    it(`needs configuration-${r.segment}:read (403 with only :create)`, async () => {
      const s = seed();
      await save(main, r.record(s, 'perm', { name: 'D perm' }), DEFAULT);
      expect(await view(main, s, { roles: [], permissions: [`configuration-${r.segment}:read`] })).toEqual([['perm', 'default', 'D perm']]);
      const refused = await main.post(`${P}/listCache`, {}, { roles: [], permissions: [`configuration-${r.segment}:create`] });
      expect(refused).toMatchObject({ httpStatus: 403, status: 403, path: `${P}/listCache`, data: null });
      expect(await main.http().post(`${P}/listCache`).send({})).toMatchObject({ status: 401 });
    });

    it('takes the filter fields of the resource', async () => {
      const s = seed();
      await save(main, r.record(s, 'one', { name: 'D one' }), DEFAULT);
      await save(main, r.record(s, 'two', { name: 'A two' }));
      expect(await view(main, s, undefined, r.exactFilter(s, 'one'))).toEqual([['one', 'default', 'D one']]);
      expect(await view(main, s, undefined, r.exactFilter(s, 'two'))).toEqual([['two', 'tenant-a', 'A two']]);
      const none = await main.post(`${P}/listCache`, r.exactFilter(s, 'three'));
      expect(none).toMatchObject({ status: 200, data: [] });
      if (r.segment === 'data-dictionary') {
        // a filter on the type code alone returns only that type's records, from both tenants
        const res = await main.post(`${P}/listCache`, { dataDictionaryTypeCode: s });
        expect((res.data as Json[]).map(codeOf).sort()).toEqual(['one', 'two']);
        expect((res.data as Json[]).every((x) => x.dataDictionaryTypeCode === s)).toBe(true);
      }
      expectFailure(await main.post(`${P}/listCache`, { dataDictionaryTypeCode: 5 }), 1003, `${P}/listCache`);
    });

    it('is served from the cache between writes; a row written behind the service (plain SQL) shows at once', async () => {
      const s = seed();
      await save(main, r.record(s, 'first', { name: 'A first' }));
      expect((await view(main, s)).map((v) => v[0])).toEqual(['first']);
      expect((await view(main, s, TENANT_B)).map((v) => v[0])).toEqual([]);

      // between writes both answers come from the cache: the table is not read
      const reads = tableReads(main, r);
      expect((await view(main, s)).map((v) => v[0])).toEqual(['first']);
      expect((await view(main, s, TENANT_B)).map((v) => v[0])).toEqual([]);
      expect(reads()).toBe(0);

      // every write raises its tenant's version in its own transaction, whatever code makes it
      await insertDirectly(main, r, 'tenant-a', r.record(s, 'sneaky', { name: 'A sneaky' }));
      expect((await view(main, s)).map((v) => v[0])).toEqual(['first', 'sneaky']);
      expect((await view(main, s, TENANT_B)).map((v) => v[0])).toEqual([]);
      // the default tenant's list, held once for every tenant, is reloaded after a write of its own
      await insertDirectly(main, r, 'default', r.record(s, 'dsneaky', { name: 'D sneaky' }));
      expect((await view(main, s, TENANT_B)).map((v) => v[0])).toEqual(['dsneaky']);
      expect((await view(main, s)).map((v) => v[0])).toEqual(['dsneaky', 'first', 'sneaky']);
    });

    it('with LIST_CACHE_TTL_SECONDS=0 a row written behind the service is visible at once', async () => {
      const s = seed();
      await save(fresh, r.record(s, 'first', { name: 'A first' }));
      expect((await view(fresh, s)).map((v) => v[0])).toEqual(['first']);
      await insertDirectly(fresh, r, 'tenant-a', r.record(s, 'sneaky', { name: 'A sneaky' }));
      await insertDirectly(fresh, r, 'default', r.record(s, 'dsneaky', { name: 'D sneaky' }));
      expect((await view(fresh, s)).map((v) => v[0])).toEqual(['dsneaky', 'first', 'sneaky']);
      expect((await view(fresh, s, TENANT_B)).map((v) => v[0])).toEqual(['dsneaky']);
    });
  });

  it('data-dictionary/listCache: rows applied by the asynchronous import are visible right after the outbox is relayed', async () => {
    const P = `${CONFIG}/data-dictionary`;
    const s = seed();
    expect(await main.post(`${P}/save`, { dataDictionaryTypeCode: s, dataDictionaryCode: 'saved' })).toMatchObject({ status: 200 });
    const before = await main.post(`${P}/listCache`, { dataDictionaryTypeCode: s });
    expect((before.data as Json[]).map((x) => x.dataDictionaryCode)).toEqual(['saved']);
    const res = await main.post(`${P}/importList`, [{ dataDictionaryTypeCode: s, dataDictionaryCode: 'imported' }]);
    expect(res).toMatchObject({ status: 200, data: true });
    await main.drainOutbox();
    const after = await main.post(`${P}/listCache`, { dataDictionaryTypeCode: s });
    expect((after.data as Json[]).map((x) => x.dataDictionaryCode).sort()).toEqual(['imported', 'saved']);
  });

  // ---------------------------------------------------------------------------------------------
  // translation/importList (XLSX upload)
  // ---------------------------------------------------------------------------------------------

  describe('translation/importList (XLSX)', () => {
    const P = `${CONFIG}/translation`;
    const HEADER = ['language', 'namespace', 'key', 'value'];

    async function workbook(rows: (string | null)[][], header: string[] = HEADER): Promise<Buffer> {
      const wb = new Workbook();
      const sheet = wb.addWorksheet('translations');
      sheet.addRow(header);
      for (const row of rows) sheet.addRow(row);
      return Buffer.from(await wb.xlsx.writeBuffer());
    }
    const upload = async (file: Buffer, claims?: Claims, name = 'translations.xlsx'): Promise<Envelope> =>
      envelopeOf(await main.http().post(`${P}/importList`).set('Authorization', main.auth(claims)).attach('file', file, name));
    const entriesOf = async (ns: string, claims?: Claims): Promise<Json[]> => {
      const res = await main.post(`${P}/list`, { namespace: ns }, claims);
      expect(res).toMatchObject({ status: 200 });
      return (res.data as Json[]).sort((a, b) => `${a.language}|${a.key}`.localeCompare(`${b.language}|${b.key}`));
    };

    it('upserts the rows of the first worksheet by language + namespace + key; a re-upload updates', async () => {
      const ns = seed();
      const res = await upload(
        await workbook([
          ['en-US', ns, 'button.save', 'Save'],
          ['de', ns, 'button.save', 'Speichern'],
        ]),
      );
      expect(res).toMatchObject({ httpStatus: 200, status: 200, error: null, data: true });
      expect(res.extraData).toEqual({ count: 2, inserted: 2, updated: 0 });
      const first = await entriesOf(ns);
      expect(first.map((x) => [x.language, x.key, x.value, x.draft, x.tenantId, x.revision])).toEqual([
        ['de', 'button.save', 'Speichern', false, 'tenant-a', 1],
        ['en-US', 'button.save', 'Save', false, 'tenant-a', 1],
      ]);

      const again = await upload(
        await workbook([
          ['en-US', ns, 'button.save', 'Save now'],
          ['en-US', ns, 'button.cancel_other', 'Cancel all'],
        ]),
      );
      expect(again).toMatchObject({ status: 200, data: true });
      expect(again.extraData).toEqual({ count: 2, inserted: 1, updated: 1 });
      const second = await entriesOf(ns);
      expect(second.map((x) => [x.language, x.key, x.value, x.revision])).toEqual([
        ['de', 'button.save', 'Speichern', 1],
        ['en-US', 'button.cancel_other', 'Cancel all', 1],
        ['en-US', 'button.save', 'Save now', 2],
      ]);
      expect(second.find((x) => x.key === 'button.save' && x.language === 'en-US')!.translationId).toBe(
        first.find((x) => x.key === 'button.save' && x.language === 'en-US')!.translationId,
      );
      expect(await entriesOf(ns, TENANT_B)).toEqual([]);
    });

    it('a workbook with a bad row is refused with status 400 naming its sheet row, and nothing is imported', async () => {
      const ns = seed();
      const badLanguage = await upload(
        await workbook([
          ['en', ns, 'ok.first', 'First'],
          ['not a language!', ns, 'bad.language', 'x'],
          ['en', ns, 'ok.second', 'Second'],
        ]),
      );
      expectFailure(badLanguage, 400, `${P}/importList`);
      expect(badLanguage.error).toBe('row 3: language must be a BCP 47 language tag, e.g. en or zh-CN');
      // each clause translated on its own, the row number kept
      const file = await workbook([['xx-!', ns, '', 'x']]);
      const german = envelopeOf(
        await main
          .http()
          .post(`${P}/importList`)
          .set('Authorization', main.auth())
          .set('Accept-Language', 'de')
          .attach('file', file, 'x.xlsx'),
      );
      expect(german.localizedError).toBe(
        'Zeile 2: language muss ein BCP-47-Sprachtag sein, z. B. en oder zh-CN; Zeile 2: key darf nicht leer sein',
      );

      const emptyKey = await upload(
        await workbook([
          ['en', ns, 'ok.first', 'First'],
          ['en', ns, 'ok.second', 'Second'],
          ['en', ns, '', 'no key'],
        ]),
      );
      expectFailure(emptyKey, 400, `${P}/importList`);
      expect(emptyKey.error).toContain('row 4');
      expect(emptyKey.error).toContain('key');
      expect(emptyKey.error).not.toMatch(/row [23]\b/);
      expect(await entriesOf(ns)).toEqual([]);
    });

    it('refuses a missing file (1002), a file that is not XLSX (400) and a wrong header row (400)', async () => {
      const ns = seed();
      const noFile = envelopeOf(await main.http().post(`${P}/importList`).set('Authorization', main.auth()).field('note', 'no file here'));
      expectFailure(noFile, 1002, `${P}/importList`);
      expect(noFile.error).toContain('file');
      const noBody = envelopeOf(await main.http().post(`${P}/importList`).set('Authorization', main.auth()));
      expectFailure(noBody, 1002, `${P}/importList`);

      expectFailure(
        await upload(Buffer.from(`language,namespace,key,value\nen,${ns},a,b\n`), undefined, 'translations.xlsx'),
        400,
        `${P}/importList`,
      );
      expectFailure(await upload(Buffer.from('PK\u0003\u0004 broken zip'), undefined, 'translations.xlsx'), 400, `${P}/importList`);
      expectFailure(await upload(await workbook([['en', ns, 'k', 'v']], ['lang', 'ns', 'key', 'value'])), 400, `${P}/importList`);
      expect(await entriesOf(ns)).toEqual([]);
    });

    it('needs a token and configuration-translation:create', async () => {
      const file = await workbook([['en', 'perm', 'k', 'v']]);
      const anonymous = envelopeOf(await main.http().post(`${P}/importList`).attach('file', file, 'translations.xlsx'));
      expectFailure(anonymous, 401, `${P}/importList`, 401);
      const readOnly = await upload(file, { roles: [], permissions: ['configuration-translation:read'] });
      expectFailure(readOnly, 403, `${P}/importList`, 403);
      expect(await entriesOf('perm')).toEqual([]);
    });
  });

  // ---------------------------------------------------------------------------------------------
  // translation/saveMissing
  // ---------------------------------------------------------------------------------------------

  describe('translation/saveMissing', () => {
    const P = `${CONFIG}/translation`;
    /** Default-tenant entries of a namespace. */
    const entriesOf = async (ns: string, t: TestApp = main, claims: Claims = DEFAULT): Promise<Json[]> => {
      const res = await t.post(`${P}/list`, { namespace: ns }, claims);
      expect(res).toMatchObject({ status: 200 });
      return (res.data as Json[]).sort((a, b) => `${a.language}|${a.key}`.localeCompare(`${b.language}|${b.key}`));
    };
    /** An anonymous report, as the package sends it: POST ?lng=&ns= with a JSON body. */
    const report = async (query: string, body: unknown, t: TestApp = main): Promise<Envelope> =>
      envelopeOf(await t.http().post(`${SAVE_MISSING}${query}`).set('Content-Type', 'application/json').send(JSON.stringify(body)));

    describe('driven by i18next + i18next-http-backend', () => {
      let locales: Server;
      let localesUrl: string;
      beforeAll(async () => {
        // serves every namespace as empty, so every key is missing
        locales = createServer((req, res) => {
          res.setHeader('Content-Type', 'application/json');
          res.end('{}');
        });
        await new Promise<void>((resolve) => locales.listen(0, '127.0.0.1', resolve));
        localesUrl = `http://127.0.0.1:${(locales.address() as AddressInfo).port}`;
      });
      afterAll(async () => {
        await new Promise((resolve) => locales?.close(resolve));
      });

      async function client(lng: string, ns: string) {
        const i18n = i18next.createInstance();
        await i18n.use(HttpBackend).init({
          lng,
          fallbackLng: false,
          ns: [ns],
          defaultNS: ns,
          saveMissing: true,
          saveMissingTo: 'current',
          initAsync: true,
          debug: false,
          backend: {
            loadPath: `${localesUrl}/locales/{{lng}}/{{ns}}.json`,
            addPath: `${baseUrl}/main-service/system-api/configuration/translation/saveMissing?lng={{lng}}&ns={{ns}}`,
            reloadInterval: false,
          },
        });
        expect(i18n.hasLoadedNamespace(ns)).toBe(true);
        return i18n;
      }

      it("t('some.missing_key', 'Fallback text') creates a draft in the default tenant", async () => {
        const ns = seed();
        const i18n = await client('en-US', ns);
        expect(i18n.t('some.missing_key', 'Fallback text')).toBe('Fallback text');

        const entry = await eventually(
          async () => (await entriesOf(ns)).find((x) => x.key === 'some.missing_key'),
          'the draft translation',
        );
        expect(entry).toMatchObject({
          language: 'en-US',
          namespace: ns,
          key: 'some.missing_key',
          value: 'Fallback text',
          draft: true,
          tenantId: 'default',
          createdUsername: 'saveMissing',
          revision: 1,
          deleteTime: null,
        });
        expect(entry.translationId).toMatch(/^[0-9A-Za-z]{21}$/);
        // the draft belongs to the default tenant only
        expect(await entriesOf(ns, main, {})).toEqual([]);
      });

      it('plural keys are reported with their suffixes', async () => {
        const ns = seed();
        const i18n = await client('en', ns);
        i18n.t('cart.items', { count: 2, defaultValue_one: 'One item', defaultValue_other: '{{count}} items' });
        const entries = await eventually(async () => {
          const found = (await entriesOf(ns)).filter((x) => x.key.startsWith('cart.items'));
          return found.length >= 2 ? found : undefined;
        }, 'the plural drafts');
        expect(entries.map((x) => [x.language, x.key, x.value, x.draft])).toEqual([
          ['en', 'cart.items_one', 'One item', true],
          ['en', 'cart.items_other', '{{count}} items', true],
        ]);
      });
    });

    it('accepts a map of several keys and a form-urlencoded body, anonymously', async () => {
      const ns = seed();
      const json = await report(`?lng=en&ns=${ns}`, { 'menu.file': 'File', 'menu.edit': 'Edit', 'menu.items_other': '{{count}} items' });
      expect(json).toMatchObject({ httpStatus: 200, status: 200, error: null, data: true, extraData: { created: 3 } });

      const form = envelopeOf(
        await main.http().post(`${SAVE_MISSING}?lng=en&ns=${ns}`).type('form').send({ 'menu.view': 'View', 'menu.help': 'Help' }),
      );
      expect(form).toMatchObject({ httpStatus: 200, status: 200, data: true, extraData: { created: 2 } });

      expect((await entriesOf(ns)).map((x) => [x.key, x.value, x.draft, x.tenantId])).toEqual([
        ['menu.edit', 'Edit', true, 'default'],
        ['menu.file', 'File', true, 'default'],
        ['menu.help', 'Help', true, 'default'],
        ['menu.items_other', '{{count}} items', true, 'default'],
        ['menu.view', 'View', true, 'default'],
      ]);
    });

    it('never overwrites an existing entry, real or draft', async () => {
      const ns = seed();
      expect(
        await main.post(`${P}/save`, { language: 'en', namespace: ns, key: 'title', value: 'Real title', draft: false }, DEFAULT),
      ).toMatchObject({ status: 200 });
      expect(await report(`?lng=en&ns=${ns}`, { 'draft.key': 'First draft' })).toMatchObject({ status: 200, extraData: { created: 1 } });

      const res = await report(`?lng=en&ns=${ns}`, { title: 'Reported title', 'draft.key': 'Second draft', fresh: 'Fresh' });
      expect(res).toMatchObject({ status: 200, data: true, extraData: { created: 1 } });
      expect((await entriesOf(ns)).map((x) => [x.key, x.value, x.draft, x.revision])).toEqual([
        ['draft.key', 'First draft', true, 1],
        ['fresh', 'Fresh', true, 1],
        ['title', 'Real title', false, 1],
      ]);
    });

    it('is bounded: more than 100 keys is 400, missing lng or ns 1002, a bad lng or ns 400', async () => {
      const ns = seed();
      const many = Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`k${i}`, `v${i}`]));
      const tooMany = await report(`?lng=en&ns=${ns}`, many);
      expectFailure(tooMany, 400, SAVE_MISSING);
      expect(tooMany.error).toContain('100');
      // exactly 100 is fine
      const hundred = Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`h${i}`, `v${i}`]));
      expect(await report(`?lng=en&ns=${ns}`, hundred)).toMatchObject({ status: 200, extraData: { created: 100 } });

      expectFailure(await report(`?ns=${ns}`, { a: 'A' }), 1002, SAVE_MISSING);
      expectFailure(await report(`?lng=&ns=${ns}`, { a: 'A' }), 1002, SAVE_MISSING);
      expectFailure(await report('?lng=en', { a: 'A' }), 1002, SAVE_MISSING);
      expectFailure(await report(`?lng=..%2Fx&ns=${ns}`, { a: 'A' }), 400, SAVE_MISSING);
      expectFailure(await report(`?lng=cimode&ns=${ns}`, { a: 'A' }), 400, SAVE_MISSING);
      expectFailure(await report('?lng=en&ns=..%2Fetc', { a: 'A' }), 400, SAVE_MISSING);
      expectFailure(await report('?lng=en&ns=admin%2F..%2Fetc', { a: 'A' }), 400, SAVE_MISSING);
      // path-like and scoped namespaces, as i18next allows them
      expect(await report(`?lng=en&ns=admin%2F${ns}`, { a: 'A' })).toMatchObject({ status: 200, extraData: { created: 1 } });
      expect(await report(`?lng=en&ns=%40org%2F${ns}`, { a: 'A' })).toMatchObject({ status: 200, extraData: { created: 1 } });
      expectFailure(await report(`?lng=en&ns=${ns}`, { ['x'.repeat(256)]: 'A' }), 400, SAVE_MISSING);
      expectFailure(await report(`?lng=en&ns=${ns}`, { ' padded': 'A' }), 400, SAVE_MISSING);
      expectFailure(await report(`?lng=en&ns=${ns}`, {}), 400, SAVE_MISSING);

      const entries = await entriesOf(ns);
      expect(entries).toHaveLength(100);
      expect(entries.every((x) => x.key.startsWith('h'))).toBe(true);
    });

    describe('body size bound (64 KiB, docs/decisions.md)', () => {
      /** 50 keys of 2,000 characters: every key and value is within its own bound, the whole body is ~100 KiB. */
      const big = (): Record<string, string> => Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`big.k${i}`, 'x'.repeat(2000)]));

      it('a report larger than 64 KiB is refused with status 413 and creates nothing', async () => {
        const ns = seed();
        const res = await report(`?lng=en&ns=${ns}`, big());
        expect(res).toMatchObject({ status: 413, path: SAVE_MISSING, data: null });
        expect(await entriesOf(ns)).toEqual([]);
      });

      it('the bound also holds for a chunked body without Content-Length', async () => {
        const ns = seed();
        const body = JSON.stringify(big());
        expect(body.length).toBeGreaterThan(64 * 1024);
        const res = await new Promise<Envelope>((resolve, reject) => {
          const req = httpRequest(
            `${baseUrl}${SAVE_MISSING}?lng=en&ns=${ns}`,
            { method: 'POST', headers: { 'Content-Type': 'application/json', 'Transfer-Encoding': 'chunked' } },
            (response) => {
              let text = '';
              response.setEncoding('utf8');
              response.on('data', (chunk: string) => (text += chunk));
              response.on('end', () => resolve({ ...JSON.parse(text), httpStatus: response.statusCode }));
            },
          );
          req.on('error', reject);
          for (let i = 0; i < body.length; i += 8192) req.write(body.slice(i, i + 8192));
          req.end();
        });
        expect(res).toMatchObject({ status: 413, path: SAVE_MISSING, data: null });
        expect(await entriesOf(ns)).toEqual([]);
      });
    });

    it('is switched off with SAVE_MISSING_ENABLED=false (HTTP 404)', async () => {
      const ns = seed();
      const res = await report(`?lng=en&ns=${ns}`, { a: 'A' }, fresh);
      expect(res).toMatchObject({ httpStatus: 404, status: 404, path: SAVE_MISSING, data: null });
      expect(await entriesOf(ns, fresh)).toEqual([]);
    });

    it('is rate-limited per client address (SAVE_MISSING_RATE_LIMIT=3: the 4th call in a minute is HTTP 429)', async () => {
      const ns = seed();
      for (let i = 1; i <= 3; i++)
        expect(await report(`?lng=en&ns=${ns}`, { [`k${i}`]: 'v' }, limited)).toMatchObject({
          httpStatus: 200,
          status: 200,
          extraData: { created: 1 },
        });
      const fourth = await report(`?lng=en&ns=${ns}`, { k4: 'v' }, limited);
      expect(fourth).toMatchObject({ httpStatus: 429, status: 429, path: SAVE_MISSING, data: null });
      expect((await entriesOf(ns, limited)).map((x) => x.key)).toEqual(['k1', 'k2', 'k3']);
      // other operations are not limited
      expect(await limited.post(`${P}/list`, { namespace: ns }, DEFAULT)).toMatchObject({ httpStatus: 200, status: 200 });
    });
  });

  // ---------------------------------------------------------------------------------------------
  // localizedError
  // ---------------------------------------------------------------------------------------------

  describe('localizedError', () => {
    const DD = `${CONFIG}/data-dictionary`;
    const DDT = `${CONFIG}/data-dictionary-type`;
    const saveWith = async (path: string, body: Json, acceptLanguage?: string): Promise<Envelope> => {
      const req = main.http().post(`${path}/save`).set('Authorization', main.auth());
      if (acceptLanguage) req.set('Accept-Language', acceptLanguage);
      return envelopeOf(await req.send(body));
    };

    it("translates the error into the caller's Accept-Language, the default tenant's namespace 'error' over the shipped texts", async () => {
      const s = seed();
      // entries are keyed by the English template: here the resource title inside "{{resource}} exists"
      expect(
        await main.post(
          `${CONFIG}/translation/save`,
          { language: 'de', namespace: 'error', key: 'Data dictionary', value: 'Datenwörterbuch' },
          DEFAULT,
        ),
      ).toMatchObject({ status: 200, data: true });
      // a draft (reported by a front end, not yet completed) is not used
      expect(
        await main.post(
          `${CONFIG}/translation/save`,
          { language: 'de', namespace: 'error', key: 'Data dictionary type', value: 'Entwurf', draft: true },
          DEFAULT,
        ),
      ).toMatchObject({ status: 200, data: true });
      // a tenant's own entry is not used either
      expect(
        await main.post(`${CONFIG}/translation/save`, {
          language: 'fr',
          namespace: 'error',
          key: '{{resource}} exists',
          value: '{{resource}} existe déjà',
        }),
      ).toMatchObject({ status: 200, data: true });

      const body = { dataDictionaryTypeCode: s, dataDictionaryCode: 'dup' };
      expect(await saveWith(DD, body)).toMatchObject({ status: 200, data: true });

      const german = await saveWith(DD, body, 'de-DE,de;q=0.9');
      expect(german).toMatchObject({
        httpStatus: 200,
        status: 422,
        error: 'Data dictionary exists',
        localizedError: 'Datenwörterbuch existiert bereits',
        path: `${DD}/save`,
        data: null,
      });

      const plain = await saveWith(DD, body);
      expect(plain).toMatchObject({ status: 422, error: 'Data dictionary exists', localizedError: 'Data dictionary exists' });
      expect(await saveWith(DD, body, 'fr-FR,fr;q=0.9')).toMatchObject({
        status: 422,
        error: 'Data dictionary exists',
        localizedError: 'Data dictionary exists',
      });
      // English is a language the service has: preferred over German, it is the answer
      expect(await saveWith(DD, body, 'en-US,de;q=0.5')).toMatchObject({ status: 422, localizedError: 'Data dictionary exists' });
      expect(await saveWith(DD, body, 'it,de;q=0.5')).toMatchObject({ status: 422, localizedError: 'Datenwörterbuch existiert bereits' });

      expect(await saveWith(DDT, { dataDictionaryTypeCode: s })).toMatchObject({ status: 200 });
      expect(await saveWith(DDT, { dataDictionaryTypeCode: s }, 'de')).toMatchObject({
        status: 422,
        error: 'Data dictionary type exists',
        localizedError: 'Datenwörterbuchtyp existiert bereits',
      });
    });
  });

  // ---------------------------------------------------------------------------------------------
  // getClientIp / getCloudServiceInfo
  // ---------------------------------------------------------------------------------------------

  describe('general configuration operations', () => {
    const ip = async (t: TestApp, forwardedFor?: string, auth = true): Promise<Envelope> => {
      const req = t.http().get(`${GENERAL}/getClientIp`);
      if (auth) req.set('Authorization', t.auth({ roles: [], permissions: [] }));
      if (forwardedFor) req.set('X-Forwarded-For', forwardedFor);
      return envelopeOf(await req);
    };

    it("getClientIp returns the caller's address, honouring X-Forwarded-For only through trusted proxies", async () => {
      expect(await ip(main)).toMatchObject({ httpStatus: 200, status: 200, data: '127.0.0.1', extraData: {} });
      // TRUST_PROXY=loopback: the test client is a loopback proxy
      expect(await ip(main, '203.0.113.7')).toMatchObject({ status: 200, data: '203.0.113.7' });
      expect(await ip(main, '198.51.100.1, 203.0.113.7')).toMatchObject({ status: 200, data: '203.0.113.7' });
      // TRUST_PROXY=false: the header is ignored
      expect(await ip(fresh)).toMatchObject({ status: 200, data: '127.0.0.1' });
      expect(await ip(fresh, '203.0.113.7')).toMatchObject({ status: 200, data: '127.0.0.1' });
    });

    it('getCloudServiceInfo returns CLOUD_SERVICE_NODES and the first node as recommended domain', async () => {
      const res = await main.get(`${GENERAL}/getCloudServiceInfo`, { roles: [], permissions: [] });
      expect(res).toMatchObject({ httpStatus: 200, status: 200, extraData: {} });
      expect(res.data).toEqual({ nodes: NODES, recommendedDomain: 'https://east.example.com' });
    });

    it('both need a token (401 without)', async () => {
      expectFailure(await ip(main, undefined, false), 401, `${GENERAL}/getClientIp`, 401);
      expectFailure(envelopeOf(await main.http().get(`${GENERAL}/getCloudServiceInfo`)), 401, `${GENERAL}/getCloudServiceInfo`, 401);
      expectFailure(
        envelopeOf(await main.http().get(`${GENERAL}/getCloudServiceInfo`).set('Authorization', 'Bearer not-a-token')),
        401,
        `${GENERAL}/getCloudServiceInfo`,
        401,
      );
    });
  });
});
