import { hashSecret, UNKNOWN_NUMBER_HASH, verifySecret } from './secret-hash';

describe('secret hashes', () => {
  it('are salted scrypt hashes that verify only the same secret', async () => {
    const [a, b] = [await hashSecret('provisioning-secret-1'), await hashSecret('provisioning-secret-1')];
    expect(a).toMatch(/^scrypt\$[A-Za-z0-9+/=]+\$[A-Za-z0-9+/=]+$/);
    expect(a).not.toBe(b);
    expect(a).not.toContain('provisioning-secret-1');
    expect(await verifySecret('provisioning-secret-1', a)).toBe(true);
    expect(await verifySecret('provisioning-secret-1', b)).toBe(true);
    expect(await verifySecret('provisioning-secret-2', a)).toBe(false);
    expect(await verifySecret('', a)).toBe(false);
  });

  it('never match a malformed stored value or the unknown-number placeholder', async () => {
    const good = await hashSecret('s');
    for (const stored of ['', 'plain', 'scrypt$$', good.replace(/^scrypt/, 'bcrypt'), good.slice(0, -8), UNKNOWN_NUMBER_HASH])
      expect(await verifySecret('s', stored)).toBe(false);
  });
});
