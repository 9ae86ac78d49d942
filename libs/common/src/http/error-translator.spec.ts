import { preferredLanguages } from './error-translator';

describe('preferredLanguages', () => {
  it('orders by q-value and adds each primary subtag after its tag', () => {
    expect(preferredLanguages('fr;q=0.5, de-DE, de;q=0.9')).toEqual(['de-DE', 'de', 'fr']);
  });
  it('ignores junk, q=0 and an absent header', () => {
    expect(preferredLanguages('*, en;q=0, ../x, zh-Hant-TW;q=0.8')).toEqual(['zh-Hant-TW', 'zh']);
    expect(preferredLanguages(undefined)).toEqual([]);
  });
});
