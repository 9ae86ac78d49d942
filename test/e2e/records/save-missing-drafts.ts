/**
 * saveMissing's cap on the drafts of the default tenant (SAVE_MISSING_MAX_DRAFTS, docs/decisions.md): keys
 * are stored while the tenant holds fewer live drafts than the cap; beyond it they are not stored and the
 * report answers HTTP 429 in the envelope. Completed and deleted entries do not count.
 */
import { readConfig } from '@app/common';
import { MainServiceConfig } from '../../../apps/main-service/src/main-service.config';
import { CONFIG, Envelope, startApp, TestApp } from '../../support/test-app';
import { Claims } from '../../support/tokens';

const T = `${CONFIG}/translation`;
const DEFAULT_ADMIN: Claims = { tenantId: 'default', sub: 'root' };
const MAX = 5;

describe('saveMissing draft cap', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startApp({ SAVE_MISSING_MAX_DRAFTS: String(MAX), SAVE_MISSING_RATE_LIMIT: '1000' });
  });
  afterAll(async () => {
    await t?.close();
  });

  const report = async (ns: string, keys: string[]): Promise<Envelope> => {
    const res = await t
      .http()
      .post(`${T}/saveMissing?lng=en&ns=${ns}`)
      .send(Object.fromEntries(keys.map((k) => [k, `fallback ${k}`])));
    return { ...res.body, httpStatus: res.status };
  };
  const drafts = async (): Promise<number> => (await t.post(`${T}/count`, { draft: true }, DEFAULT_ADMIN)).data;

  it('stores keys up to the cap, then answers 429 and stores nothing more', async () => {
    expect(await report('capped', ['a', 'b', 'c'])).toMatchObject({ httpStatus: 200, status: 200, data: true, extraData: { created: 3 } });
    // an entry an operator completed is no draft: it does not count
    expect(await t.post(`${T}/save`, { language: 'en', namespace: 'capped', key: 'done', value: 'Done' }, DEFAULT_ADMIN)).toMatchObject({
      data: true,
    });
    const over = await report('capped', ['d', 'e', 'f', 'g']);
    expect(over).toMatchObject({ httpStatus: 429, status: 429, data: null, path: `${T}/saveMissing` });
    expect(typeof over.error).toBe('string');
    expect(await drafts()).toBe(MAX);
    const stored = (await t.post(`${T}/list`, { namespace: 'capped' }, DEFAULT_ADMIN)).data.map((r: { key: string }) => r.key);
    expect(stored.sort()).toEqual(['a', 'b', 'c', 'd', 'done', 'e']);

    expect(await report('capped', ['h'])).toMatchObject({ httpStatus: 429, status: 429 });
    expect(await report('elsewhere', ['a'])).toMatchObject({ httpStatus: 429, status: 429 });
    expect(await drafts()).toBe(MAX);
  });

  it('takes keys again once an operator completes or deletes drafts', async () => {
    const [first, second] = (await t.post(`${T}/list`, { namespace: 'capped', draft: true }, DEFAULT_ADMIN)).data;
    expect(await t.put(`${T}/updateById`, { translationId: first.translationId, value: 'A', draft: false }, DEFAULT_ADMIN)).toMatchObject({
      data: true,
    });
    expect(await t.del(`${T}/removeById?id=${second.translationId}`, DEFAULT_ADMIN)).toMatchObject({ data: true });
    expect(await report('capped', ['h', 'i'])).toMatchObject({ httpStatus: 200, data: true, extraData: { created: 2 } });
    expect(await drafts()).toBe(MAX);
    expect(await report('capped', ['j'])).toMatchObject({ httpStatus: 429 });
  });

  it('documents the 429 of the cap', async () => {
    const doc = (await t.http().get('/main-service/v3/api-docs')).body;
    expect(JSON.stringify(doc.paths[`${T}/saveMissing`].post.responses['429'])).toContain('SAVE_MISSING_MAX_DRAFTS');
  });

  it('refuses a SAVE_MISSING_MAX_DRAFTS that is not a positive integer', () => {
    for (const bad of ['0', '-1', 'many', '1.5'])
      expect(() => readConfig(MainServiceConfig, { SAVE_MISSING_MAX_DRAFTS: bad })).toThrow(/SAVE_MISSING_MAX_DRAFTS/);
    expect(readConfig(MainServiceConfig, {}).saveMissingMaxDrafts).toBe(10_000);
  });
});
