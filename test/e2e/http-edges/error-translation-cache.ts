/**
 * localizedError under hostile Accept-Language headers: anonymous 401s carrying many distinct random
 * language tags cause no query on translations and no cache growth; languages that exist are still
 * translated, a new one is picked up on write, and the cache of languages' texts stays bounded. Also the
 * OpenAPI description of saveMissing's query parameters.
 */
import { ErrorTextOverrides, LANGUAGE_TAG_MAX, LANGUAGE_TAG_PATTERN } from '@app/common';
import { randomBytes } from 'node:crypto';
import {
  MAX_CACHED_LANGUAGES,
  TranslationErrorTranslator,
} from '../../../apps/main-service/src/configuration/translation/translation-error.translator';
import { NAMESPACE_MAX, NAMESPACE_PATTERN } from '../../../apps/main-service/src/configuration/translation/translation.entity';
import { CONFIG, Envelope, startApp, TestApp } from '../../support/test-app';
import { Claims } from '../../support/tokens';
import type { Json } from '../../support/json';

const DEFAULT: Claims = { tenantId: 'default', sub: 'root' };
const GUARDED = `${CONFIG}/translation/list`;
/** The error of an anonymous call: the key (its English template) under which the entries below translate it. */
const UNAUTHORIZED = 'Unauthorized: no Bearer token in the Authorization header';

describe('localizedError and its cache of translations', () => {
  let t: TestApp;
  let translator: TranslationErrorTranslator;
  let translationQueries: string[];

  beforeAll(async () => {
    t = await startApp({ LIST_CACHE_TTL_SECONDS: '3600' });
    translator = t.app.get(ErrorTextOverrides) as TranslationErrorTranslator;
    const logQuery = t.dataSource.logger.logQuery.bind(t.dataSource.logger);
    translationQueries = [];
    jest.spyOn(t.dataSource.logger, 'logQuery').mockImplementation((query, parameters, runner) => {
      if (/configuration_translation/.test(query)) translationQueries.push(query);
      return logQuery(query, parameters, runner);
    });
    // on MySQL/MariaDB the prepared reads run on mysql2's pool, past TypeORM's logger (persistence/sql/run-statement.ts)
    const pool = (t.dataSource.driver as unknown as { pool?: { execute: (sql: string, ...rest: unknown[]) => unknown } }).pool;
    if (pool) {
      const execute = pool.execute.bind(pool);
      jest.spyOn(pool, 'execute').mockImplementation((sql, ...rest) => {
        if (/configuration_translation/.test(sql)) translationQueries.push(sql);
        return execute(sql, ...rest);
      });
    }
  });
  afterAll(async () => {
    await t?.close();
  });

  const anonymous = async (acceptLanguage: string): Promise<Envelope> => {
    const res = await t.http().post(GUARDED).set('Accept-Language', acceptLanguage).send({});
    return { ...(res.body as Envelope), httpStatus: res.status };
  };
  const randomTag = (): string => `${randomBytes(3).toString('hex').replace(/\d/g, 'q')}-${randomBytes(3).toString('hex')}`;
  const saveError = async (language: string, value: string) =>
    expect(await t.post(`${CONFIG}/translation/save`, { language, namespace: 'error', key: UNAUTHORIZED, value }, DEFAULT)).toMatchObject({
      status: 200,
      data: true,
    });

  describe('error translation cache', () => {
    it('translates 401s into existing languages; random tags cause no query and no cache growth', async () => {
      // fr has no shipped catalogue: English until an entry exists; de's shipped text is overridden by the entry
      const first = await anonymous('fr');
      expect(first).toMatchObject({ httpStatus: 401, status: 401, error: UNAUTHORIZED });
      expect(first.localizedError).toBe(first.error);

      await saveError('de', 'Nicht angemeldet');
      await saveError('fr-FR', 'Non authentifié');
      expect(await anonymous('de-AT, en;q=0.5')).toMatchObject({ httpStatus: 401, localizedError: 'Nicht angemeldet' });
      expect(await anonymous('FR-fr')).toMatchObject({ localizedError: 'Non authentifié' });
      expect(translator.cachedLanguages).toBe(2);

      translationQueries.length = 0;
      for (let i = 0; i < 200; i++) {
        const header = Array.from({ length: 6 }, randomTag).join(', ');
        expect(await anonymous(header)).toMatchObject({ httpStatus: 401, status: 401, localizedError: UNAUTHORIZED });
      }
      expect(translationQueries).toEqual([]);
      expect(translator.cachedLanguages).toBe(2);
      // the existing ones are still served from the cache
      expect(await anonymous(`${randomTag()}, de;q=0.1`)).toMatchObject({ localizedError: 'Nicht angemeldet' });
      expect(translationQueries).toEqual([]);
    });

    it(`holds the texts of at most ${MAX_CACHED_LANGUAGES} languages, the least recently used dropped first`, async () => {
      const languages = Array.from({ length: MAX_CACHED_LANGUAGES + 8 }, (_, i) => `x${String.fromCharCode(97 + (i % 26))}-n${i}`);
      for (const language of languages) await saveError(language, `unauthorized in ${language}`);
      for (const language of languages) expect(await anonymous(language)).toMatchObject({ localizedError: `unauthorized in ${language}` });
      expect(translator.cachedLanguages).toBe(MAX_CACHED_LANGUAGES);

      translationQueries.length = 0;
      const recent = languages[languages.length - 1];
      expect(await anonymous(recent)).toMatchObject({ localizedError: `unauthorized in ${recent}` });
      expect(translationQueries).toEqual([]); // still cached
      expect(await anonymous(languages[0])).toMatchObject({ localizedError: `unauthorized in ${languages[0]}` });
      expect(translationQueries.length).toBe(1); // dropped, loaded again
      expect(translator.cachedLanguages).toBe(MAX_CACHED_LANGUAGES);
    });
  });

  describe('translation/saveMissing in the OpenAPI document', () => {
    it('types lng and ns as strings with the pattern and length the service enforces', async () => {
      const doc = (await t.http().get('/main-service/v3/api-docs')).body as Json;
      const params = doc.paths['/main-service/system-api/configuration/translation/saveMissing'].post.parameters as Json[];
      const schemaOf = (name: string) => params.find((p) => p.name === name && p.in === 'query')?.schema;
      expect(schemaOf('lng')).toMatchObject({ type: 'string', pattern: LANGUAGE_TAG_PATTERN.source, maxLength: LANGUAGE_TAG_MAX });
      expect(schemaOf('ns')).toMatchObject({ type: 'string', pattern: NAMESPACE_PATTERN.source, maxLength: NAMESPACE_MAX });
      expect(new RegExp(schemaOf('lng').pattern).test('en-US')).toBe(true);
    });
  });
});
