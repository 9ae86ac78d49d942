import { ApiTag, tagDescription } from './tags';

describe('ApiTag', () => {
  it('refuses a tag with "/", which no Swagger UI deep link can address, and keeps no description of it', () => {
    expect(() => ApiTag('shop / order', 'Orders.')).toThrow(/Tag "shop \/ order" contains "\/".*deep links/);
    expect(tagDescription('shop / order')).toBeUndefined();
  });

  it('takes a "group: resource" tag and keeps its description', () => {
    expect(() => ApiTag('shop: order', 'Orders.')).not.toThrow();
    expect(tagDescription('shop: order')).toBe('Orders.');
  });
});
