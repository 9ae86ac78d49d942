import { CLIENT_ID_PATTERN, newId } from './ids';

/** contract.md "Records": identifiers are 21-character random strings over [0-9A-Za-z]. */
describe('newId', () => {
  const ids = Array.from({ length: 10_000 }, () => newId());

  it('is 21 characters of [0-9A-Za-z]', () => {
    expect(ids.filter((id) => !/^[0-9A-Za-z]{21}$/.test(id))).toEqual([]);
  });

  it('does not collide in 10,000 ids', () => {
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('uses the whole alphabet: digits, upper and lower case', () => {
    const seen = new Set(ids.join(''));
    expect([...'0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'].filter((c) => !seen.has(c))).toEqual([]);
  });

  it('spreads characters evenly over every position (no fixed prefix, no bias)', () => {
    for (let position = 0; position < 21; position++) {
      const atPosition = new Set(ids.map((id) => id[position]));
      expect({ position, distinct: atPosition.size }).toEqual({ position, distinct: 62 });
    }
    const counts = new Map<string, number>();
    for (const c of ids.join('')) counts.set(c, (counts.get(c) ?? 0) + 1);
    const expected = (21 * ids.length) / 62; // ≈ 3387 per character
    for (const [c, n] of counts) expect({ c, ok: Math.abs(n - expected) < expected * 0.15 }).toEqual({ c, ok: true });
  });

  it('is accepted as a client-supplied identifier', () => {
    expect(ids.slice(0, 100).every((id) => CLIENT_ID_PATTERN.test(id))).toBe(true);
  });
});
