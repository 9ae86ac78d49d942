import { sign } from 'jsonwebtoken';
import { Principal } from '../tenancy/request-context';
import { VerifiedTokens } from './verified-tokens';

const principal = (): Principal => ({ tenantId: 'tenant-a', username: 'alice', roles: ['administrator'], permissions: [] });
const tokenExpiringAt = (expSeconds: number, sub = 'alice') =>
  sign({ sub, tenantId: 'tenant-a', exp: expSeconds }, 'a-secret-of-at-least-16-chars');

describe('VerifiedTokens', () => {
  const start = Date.UTC(2026, 0, 1, 12, 0, 0);
  beforeEach(() => jest.useFakeTimers({ now: start }));
  afterEach(() => jest.useRealTimers());

  it('recognises a remembered token until its own expiry', () => {
    const tokens = new VerifiedTokens(10, 60_000);
    const token = tokenExpiringAt(start / 1000 + 30);
    expect(tokens.principal(token)).toBeUndefined();
    tokens.remember(token, principal());
    expect(tokens.principal(token)).toEqual(principal());
    jest.setSystemTime(start + 29_999);
    expect(tokens.principal(token)).toEqual(principal());
    jest.setSystemTime(start + 30_000); // jsonwebtoken refuses a token at its exp second: so does the cache
    expect(tokens.principal(token)).toBeUndefined();
  });

  it('verifies a long-lived token again after the time-to-live', () => {
    const tokens = new VerifiedTokens(10, 60_000);
    const token = tokenExpiringAt(start / 1000 + 3600);
    tokens.remember(token, principal());
    jest.setSystemTime(start + 59_999);
    expect(tokens.principal(token)).toBeDefined();
    jest.setSystemTime(start + 60_000);
    expect(tokens.principal(token)).toBeUndefined();
  });

  it('knows a token only by its exact text', () => {
    const tokens = new VerifiedTokens(10, 60_000);
    const token = tokenExpiringAt(start / 1000 + 30);
    tokens.remember(token, principal());
    expect(tokens.principal(`${token}x`)).toBeUndefined();
    expect(tokens.principal(token.slice(0, -1))).toBeUndefined();
  });

  it('forgets the oldest token beyond its bound', () => {
    const tokens = new VerifiedTokens(2, 60_000);
    const [a, b, c] = ['a', 'b', 'c'].map((sub) => tokenExpiringAt(start / 1000 + 30, sub));
    for (const token of [a, b, c]) tokens.remember(token, principal());
    expect([a, b, c].map((token) => tokens.principal(token) !== undefined)).toEqual([false, true, true]);
  });

  it('forgets the least recently presented token first', () => {
    const tokens = new VerifiedTokens(2, 60_000);
    const [a, b, c] = ['a', 'b', 'c'].map((sub) => tokenExpiringAt(start / 1000 + 30, sub));
    tokens.remember(a, principal());
    tokens.remember(b, principal());
    expect(tokens.principal(a)).toBeDefined(); // a client presenting its token keeps it remembered
    tokens.remember(c, principal());
    expect([a, b, c].map((token) => tokens.principal(token) !== undefined)).toEqual([true, false, true]);
  });

  it('shares a principal nobody can change', () => {
    const tokens = new VerifiedTokens(10, 60_000);
    const token = tokenExpiringAt(start / 1000 + 30);
    tokens.remember(token, principal());
    const shared = tokens.principal(token)!;
    expect(() => shared.roles.push('x')).toThrow(TypeError);
    expect(() => Object.assign(shared, { tenantId: 'tenant-b' })).toThrow(TypeError);
  });
});
