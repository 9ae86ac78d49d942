import { addShippedTexts } from '../i18n/catalogues';
import { message } from '../i18n/message';
import { availableLanguages, localize, preferredLanguages } from './error-translator';

/** Accept-Language parsing for `localizedError` (docs/decisions.md: best match, then its primary subtag). */
describe('preferredLanguages', () => {
  it('is empty without a header', () => {
    expect(preferredLanguages(undefined)).toEqual([]);
    expect(preferredLanguages('')).toEqual([]);
  });

  it('follows a tag with its primary subtag', () => {
    expect(preferredLanguages('en-US')).toEqual(['en-US', 'en']);
    expect(preferredLanguages('zh-Hant-TW')).toEqual(['zh-Hant-TW', 'zh']);
  });

  it('keeps a bare primary language as is', () => {
    expect(preferredLanguages('de')).toEqual(['de']);
  });

  it('orders by q-value, best first, whatever the header order', () => {
    expect(preferredLanguages('en;q=0.5, de;q=0.9, fr')).toEqual(['fr', 'de', 'en']);
    expect(preferredLanguages('fr-CH, fr;q=0.9, en;q=0.8, de;q=0.7')).toEqual(['fr-CH', 'fr', 'en', 'de']);
    expect(preferredLanguages('ja;q=0.1,ko;q=0.3,en-GB;q=0.2')).toEqual(['ko', 'en-GB', 'en', 'ja']);
    expect(preferredLanguages('fr;q=0.5, de-DE, de;q=0.9')).toEqual(['de-DE', 'de', 'fr']);
  });

  it('keeps header order among equal q-values (a missing q is 1)', () => {
    expect(preferredLanguages('de, en, fr;q=1')).toEqual(['de', 'en', 'fr']);
    expect(preferredLanguages('it;q=0.5, es;q=0.5')).toEqual(['it', 'es']);
  });

  it('lists each tag once: a primary subtag reached by fallback is not repeated later', () => {
    expect(preferredLanguages('en-US, de;q=0.8, en;q=0.5')).toEqual(['en-US', 'en', 'de']);
    expect(preferredLanguages('en-US, en-GB;q=0.9')).toEqual(['en-US', 'en', 'en-GB']);
  });

  it('tolerates whitespace around tags and parameters', () => {
    expect(preferredLanguages('  en-US ; q=0.8 ,  fr  ')).toEqual(['fr', 'en-US', 'en']);
  });

  it('drops languages refused with q=0', () => {
    expect(preferredLanguages('en, de;q=0')).toEqual(['en']);
    expect(preferredLanguages('de;q=0.0')).toEqual([]);
  });

  it('ignores junk: wildcards, malformed tags and q-values, empty parts', () => {
    expect(preferredLanguages('*')).toEqual([]);
    expect(preferredLanguages('en, *;q=0.5')).toEqual(['en']);
    expect(preferredLanguages(',,;, ;q=1, en')).toEqual(['en']);
    expect(preferredLanguages('12$, <script>, en_US, fr')).toEqual(['fr']);
    expect(preferredLanguages('abcdefghij, de')).toEqual(['de']); // primary subtag longer than 8
    expect(preferredLanguages('en-, -en, en--US, es')).toEqual(['es']);
    expect(preferredLanguages('de;q=abc, it')).toEqual(['it']);
    expect(preferredLanguages('*, en;q=0, ../x, zh-Hant-TW;q=0.8')).toEqual(['zh-Hant-TW', 'zh']);
    expect(preferredLanguages('\u00e9n, pt-BR')).toEqual(['pt-BR', 'pt']);
  });

  it('stays bounded on a very long header', () => {
    const header = Array.from({ length: 1000 }, (_, i) => `l${String.fromCharCode(97 + (i % 26))}-x${i}`).join(', ');
    const tags = preferredLanguages(header);
    expect(tags.length).toBeGreaterThan(0);
    expect(tags.length).toBeLessThanOrEqual(20);
  });
});

describe('availableLanguages', () => {
  const stored = new Map([
    ['de', 'de'],
    ['en-us', 'en-US'],
    ['fr', 'fr'],
  ]);

  it('keeps only the languages that exist, best first, in their stored spelling', () => {
    expect(availableLanguages('EN-us, de;q=0.5, xx-YY;q=0.9', stored)).toEqual(['en-US', 'de']);
    expect(availableLanguages('fr-CH, de;q=0.8', stored)).toEqual(['fr', 'de']);
    expect(availableLanguages('DE-de', stored)).toEqual(['de']);
  });

  it('is empty for a header naming no stored language, or none', () => {
    expect(availableLanguages('qq, zz-ZZ, x-y', stored)).toEqual([]);
    expect(availableLanguages(undefined, stored)).toEqual([]);
    expect(availableLanguages('de', new Map())).toEqual([]);
  });
});

describe('localize (localizedError)', () => {
  const required = message('{{property}} is required', { property: 'toAddresses' });
  // an app's record title, added to the shipped texts as a service's manifest does
  addShippedTexts({ de: { Locker: 'Schließfach' }, 'zh-CN': { Locker: '储物柜' } });
  const exists = message('{{resource}} exists', { resource: message('Locker') });
  const none = new Map<string, ReadonlyMap<string, string>>();

  it('translates each clause with the shipped zh-CN and de catalogues, parameters kept', () => {
    expect(localize([required, exists], 'zh-CN', none)).toBe('toAddresses 为必填项; 储物柜已存在');
    expect(localize([required, exists], 'de-DE,de;q=0.9', none)).toBe('toAddresses ist erforderlich; Schließfach existiert bereits');
    expect(localize([required], 'zh', none)).toBe('toAddresses 为必填项');
  });

  it('follows q-values, and English (shipped as the templates themselves) ends the search', () => {
    expect(localize([required], 'fr;q=0.9, de;q=0.8, zh-CN;q=0.95', none)).toBe('toAddresses 为必填项');
    expect(localize([required], 'en-US, de;q=0.5', none)).toBe('toAddresses is required');
  });

  it('falls back to English for a language without a catalogue (fr), and without a header', () => {
    expect(localize([required], 'fr-FR, fr', none)).toBe('toAddresses is required');
    expect(localize([required], undefined, none)).toBe('toAddresses is required');
  });

  it("lets the deployment's entries win over the shipped text, per template", () => {
    const overrides = new Map([['de', new Map([['Locker', 'Spind']])]]);
    expect(localize([exists, required], 'de', overrides)).toBe('Spind existiert bereits; toAddresses ist erforderlich');
    const french = new Map([['fr', new Map([['{{property}} is required', '{{property}} est obligatoire']])]]);
    expect(localize([required], 'fr', french)).toBe('toAddresses est obligatoire');
  });

  it('never interprets placeholders inside parameter values', () => {
    expect(localize([message('{{property}} is required', { property: '{{property}}' })], 'de', none)).toBe('{{property}} ist erforderlich');
  });
});
