import { CLIENT_ID_PATTERN, newId } from './ids';

describe('newId', () => {
  it('is 21 characters of [0-9A-Za-z], without collisions in 10,000', () => {
    const ids = Array.from({ length: 10_000 }, newId);
    for (const id of ids) expect(id).toMatch(/^[0-9A-Za-z]{21}$/);
    expect(new Set(ids).size).toBe(ids.length);
    expect(CLIENT_ID_PATTERN.test(ids[0])).toBe(true);
  });
});
