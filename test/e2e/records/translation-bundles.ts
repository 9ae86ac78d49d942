/**
 * The translations a browser loads (GET .../configuration/translation/{tenantId}/{lng}/{ns}.json, i18next-http-backend's
 * loadPath): anonymous, a flat JSON object of the live, completed entries, the tenant's over the default tenant's;
 * ETag and 304; public namespaces only; bounded parameters; a limit per client address; loaded by the real i18next.
 */
import { get as httpGet, IncomingHttpHeaders } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import i18next from 'i18next';
import HttpBackend from 'i18next-http-backend';
import { BUNDLE_MAX_KEYS } from '../../../apps/main-service/src/configuration/translation/translation-bundles';
import { CONFIG, listenOnLoopback, startApp, TestApp } from '../../support/test-app';
import { Claims } from '../../support/tokens';

const P = `${CONFIG}/translation`;
const LOAD = '/main-service/main-api/v1/general/configuration/translation';
const DEFAULT: Claims = { tenantId: 'default', sub: 'root' };
const ACME: Claims = { tenantId: 'acme', sub: 'alice' };

describe('translations for browsers (loadPath)', () => {
  let t: TestApp;
  let limited: TestApp;
  let baseUrl: string;
  let counter = 0;
  const seed = () => `ns${++counter}x${Date.now().toString(36)}`;

  beforeAll(async () => {
    t = await startApp({ TRANSLATION_PUBLIC_NAMESPACES: '*' });
    baseUrl = await listenOnLoopback(t);
    // an empty TRANSLATION_PUBLIC_NAMESPACES is the default (every namespace but error), as a manifest's blank value
    limited = await startApp({ TRANSLATION_LOAD_RATE_LIMIT: '3', SAVE_MISSING_RATE_LIMIT: '100', TRANSLATION_PUBLIC_NAMESPACES: '' });
  });
  afterAll(async () => {
    await Promise.all([t, limited].filter(Boolean).map((app) => app.close()));
  });

  const save = async (claims: Claims, entry: Record<string, unknown>) =>
    expect(await t.post(`${P}/save`, { language: 'de-DE', ...entry }, claims)).toMatchObject({ status: 200, data: true });
  const load = (path: string, app: TestApp = t) => app.http().get(`${LOAD}/${path}`);

  it("answers anonymously with the live completed entries, the tenant's over the default tenant's", async () => {
    const ns = seed();
    await save(DEFAULT, { namespace: ns, key: 'button.save', value: 'Speichern' });
    await save(DEFAULT, { namespace: ns, key: 'button.cancel', value: 'Abbrechen' });
    await save(DEFAULT, { namespace: ns, key: 'draft.key', value: 'Entwurf', draft: true });
    await save(DEFAULT, { namespace: ns, key: 'gone', value: 'Weg' });
    await save(ACME, { namespace: ns, key: 'button.save', value: 'Sichern' });
    await save(ACME, { namespace: ns, key: 'acme.only', value: 'Nur ACME' });
    await save(DEFAULT, { namespace: ns, language: 'en-US', key: 'button.save', value: 'Save' });
    const gone = (await t.post(`${P}/list`, { namespace: ns, key: 'gone' }, DEFAULT)).data[0].translationId;
    expect(await t.del(`${P}/removeById?id=${gone}`, DEFAULT)).toMatchObject({ data: true });

    const acme = await load(`acme/de-DE/${ns}.json`);
    expect(acme.status).toBe(200);
    expect(acme.headers['content-type']).toMatch(/^application\/json/);
    expect(acme.headers['cache-control']).toBe('public, max-age=60');
    expect(acme.body).toEqual({ 'acme.only': 'Nur ACME', 'button.cancel': 'Abbrechen', 'button.save': 'Sichern' });
    expect((await load(`default/de-DE/${ns}.json`)).body).toEqual({ 'button.cancel': 'Abbrechen', 'button.save': 'Speichern' });
    // an id that is no tenant gets the default tenant's: the answer tells nobody which tenants exist
    expect((await load(`nobody/de-DE/${ns}.json`)).body).toEqual({ 'button.cancel': 'Abbrechen', 'button.save': 'Speichern' });
    expect((await load(`acme/en-US/${ns}.json`)).body).toEqual({ 'button.save': 'Save' });
    // an unknown language or namespace: {}
    expect((await load(`acme/fr-FR/${ns}.json`)).body).toEqual({});
    expect((await load(`acme/de-DE/${seed()}.json`)).body).toEqual({});
  });

  it('tags the bundle: a matching If-None-Match is a 304 until a write of either tenant changes it', async () => {
    const ns = seed();
    await save(DEFAULT, { namespace: ns, key: 'a', value: 'A' });
    const first = await load(`acme/de-DE/${ns}.json`);
    const tag = first.headers.etag;
    expect(tag).toMatch(/^"[^"]+"$/);
    const again = await t.http().get(`${LOAD}/acme/de-DE/${ns}.json`).set('If-None-Match', tag);
    expect(again.status).toBe(304);
    expect(again.headers.etag).toBe(tag);
    expect(await t.http().get(`${LOAD}/acme/de-DE/${ns}.json`).set('If-None-Match', `"other", W/${tag}`)).toMatchObject({ status: 304 });

    await save(ACME, { namespace: ns, key: 'b', value: 'B' });
    const changed = await t.http().get(`${LOAD}/acme/de-DE/${ns}.json`).set('If-None-Match', tag);
    expect(changed.status).toBe(200);
    expect(changed.headers.etag).not.toBe(tag);
    expect(changed.body).toEqual({ a: 'A', b: 'B' });
    await save(DEFAULT, { namespace: ns, key: 'c', value: 'C' });
    expect((await t.http().get(`${LOAD}/acme/de-DE/${ns}.json`).set('If-None-Match', changed.headers.etag)).body).toEqual({
      a: 'A',
      b: 'B',
      c: 'C',
    });
  });

  it('takes a namespace with a slash sent encoded, and refuses malformed parameters with 400 in the envelope', async () => {
    await save(DEFAULT, { namespace: 'admin/users', key: 'title', value: 'Benutzer' });
    expect((await load('acme/de-DE/admin%2Fusers.json')).body).toMatchObject({ title: 'Benutzer' });
    for (const [path, name] of [
      ['ac%20me/de-DE/common.json', 'tenantId'],
      [`${'t'.repeat(65)}/de-DE/common.json`, 'tenantId'],
      ['acme/de_DE!/common.json', 'lng'],
      ['acme/cimode/common.json', 'lng'],
      ['acme/de-DE/..%2Fsecret.json', 'ns'],
    ]) {
      const res = await load(path);
      expect({ path, status: res.status, body: res.body }).toMatchObject({
        path,
        status: 200,
        body: { status: 400, error: `Parameter '${name}' is not acceptable`, data: null },
      });
    }
  });

  it('serves only the namespaces TRANSLATION_PUBLIC_NAMESPACES lists: by default (unset or empty) every one but error', async () => {
    const res = await limited.post(`${P}/save`, { language: 'de-DE', namespace: 'error', key: 'x', value: 'X' }, DEFAULT);
    expect(res).toMatchObject({ data: true });
    expect(await limited.post(`${P}/save`, { language: 'de-DE', namespace: 'common', key: 'x', value: 'X' }, DEFAULT)).toMatchObject({
      data: true,
    });
    expect((await load('acme/de-DE/error.json', limited)).body).toEqual({});
    expect((await load('acme/de-DE/common.json', limited)).body).toEqual({ x: 'X' });
  });

  it('limits loads per client address (TRANSLATION_LOAD_RATE_LIMIT), apart from saveMissing reports', async () => {
    // the previous case spent two of this app's three loads
    const third = await load('acme/de-DE/common.json', limited);
    expect(third.status).toBe(200);
    const over = await load('acme/de-DE/common.json', limited);
    expect(over.status).toBe(429);
    expect(over.body).toMatchObject({ status: 429, data: null });
    expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
    const report = await limited.http().post(`${P}/saveMissing?lng=de-DE&ns=common`).send({ 'still.reported': 'x' });
    expect(report.body).toMatchObject({ status: 200, data: true });
  });

  it('a namespace of BUNDLE_MAX_KEYS keys is answered whole, compressed for a browser', async () => {
    const ns = seed();
    // written by one statement (the triggers count the rows): 50 imports through the API would only slow the suite
    const mysql = t.dataSource.options.type !== 'better-sqlite3';
    const text = (...parts: string[]) => (mysql ? `CONCAT(${parts.join(', ')})` : parts.join(' || '));
    const digit =
      'SELECT 0 AS x UNION ALL SELECT 1 UNION ALL SELECT 2 UNION ALL SELECT 3 UNION ALL SELECT 4 UNION ALL SELECT 5 UNION ALL SELECT 6 UNION ALL SELECT 7 UNION ALL SELECT 8 UNION ALL SELECT 9';
    const now = Date.now();
    await t.dataSource.query(
      `INSERT INTO configuration_translation (tenant_id, translation_id, revision, created_username, created_time, last_modified_username, ` +
        `last_modified_time, delete_time, language, namespace, \`key\`, value, draft) ` +
        `SELECT 'default', ${text(`'${ns}-'`, 'n')}, 1, 'root', ${now}, 'root', ${now}, 0, 'de-DE', '${ns}', ` +
        `${text("'screen.'", 'n', "'.label'")}, ${text("'Beschriftung Nummer '", 'n', "' der Anwendung'")}, 0 ` +
        `FROM (SELECT a.x + 10 * b.x + 100 * c.x + 1000 * d.x + 10000 * e.x AS n ` +
        `FROM (${digit}) a, (${digit}) b, (${digit}) c, (${digit}) d, (${digit}) e) numbers WHERE n < ${BUNDLE_MAX_KEYS}`,
    );
    const { status, headers, wire, body } = await new Promise<{
      status?: number;
      headers: IncomingHttpHeaders;
      wire: number;
      body: Buffer;
    }>((resolve, reject) =>
      httpGet(`${baseUrl}${LOAD}/acme/de-DE/${ns}.json`, { headers: { 'Accept-Encoding': 'gzip, deflate, br' } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const raw = Buffer.concat(chunks);
          const encoding = res.headers['content-encoding'];
          const body = encoding === 'br' ? brotliDecompressSync(raw) : encoding === 'gzip' ? gunzipSync(raw) : raw;
          resolve({ status: res.statusCode, headers: res.headers, wire: raw.length, body });
        });
      }).on('error', reject),
    );
    expect(status).toBe(200);
    expect(headers['content-encoding']).toMatch(/^(gzip|br)$/);
    const bundle = JSON.parse(body.toString('utf8')) as Record<string, string>;
    expect(Object.keys(bundle)).toHaveLength(BUNDLE_MAX_KEYS);
    expect(bundle['screen.12345.label']).toBe('Beschriftung Nummer 12345 der Anwendung');
    // about 3.4 MB of JSON: on the wire a small part of it
    expect(wire).toBeLessThan(body.length / 5);
  });

  it('is what the real i18next + i18next-http-backend load (keySeparator false), and a reload is a 304', async () => {
    const ns = seed();
    await save(DEFAULT, { namespace: ns, key: 'page.title', value: 'Willkommen' });
    await save(ACME, { namespace: ns, key: 'page.title', value: 'Willkommen bei ACME' });
    const i18n = i18next.createInstance();
    await i18n.use(HttpBackend).init({
      lng: 'de-DE',
      fallbackLng: false,
      ns: [ns],
      defaultNS: ns,
      keySeparator: false,
      initAsync: true,
      backend: {
        loadPath: `${baseUrl}${LOAD}/acme/{{lng}}/{{ns}}.json`,
        reloadInterval: false,
      },
    });
    expect(i18n.t('page.title')).toBe('Willkommen bei ACME');
    expect(i18n.t('no.such.key')).toBe('no.such.key');
    // a browser's HTTP cache sends the tag back on a reload
    const first = await fetch(`${baseUrl}${LOAD}/acme/de-DE/${ns}.json`);
    const second = await fetch(`${baseUrl}${LOAD}/acme/de-DE/${ns}.json`, { headers: { 'If-None-Match': first.headers.get('etag')! } });
    expect([first.status, second.status]).toEqual([200, 304]);
  });
});
