import { scryptSync } from 'node:crypto';
import { hashSecret, secretHashCost, unknownNumberHash, verifySecret } from './secret-hash';

describe('secret hashes', () => {
  it('are salted scrypt hashes that carry their cost and verify only the same secret', async () => {
    const [a, b] = [await hashSecret('provisioning-secret-1', 10), await hashSecret('provisioning-secret-1', 10)];
    expect(a).toMatch(/^scrypt\$ln=10\$[A-Za-z0-9+/=]+\$[A-Za-z0-9+/=]+$/);
    expect(a).not.toBe(b);
    expect(a).not.toContain('provisioning-secret-1');
    expect(await verifySecret('provisioning-secret-1', a)).toBe(true);
    expect(await verifySecret('provisioning-secret-1', b)).toBe(true);
    expect(await verifySecret('provisioning-secret-2', a)).toBe(false);
    expect(await verifySecret('', a)).toBe(false);
  });

  it('take the cost of new hashes from DEVICE_SECRET_HASH_COST, and verify each at the cost it was made with', async () => {
    expect(secretHashCost({})).toBe(14);
    expect(secretHashCost({ DEVICE_SECRET_HASH_COST: '11' })).toBe(11);
    const cheap = await hashSecret('s', 10);
    const dearer = await hashSecret('s', 11);
    expect([await verifySecret('s', cheap), await verifySecret('s', dearer)]).toEqual([true, true]);
    // a hash with its cost changed is another hash: the cost is part of what is checked
    expect(await verifySecret('s', cheap.replace('ln=10', 'ln=11'))).toBe(false);
  });

  it('verify the earlier form without a cost as made with Node default cost 2^14', async () => {
    const salt = Buffer.alloc(16, 7);
    const earlier = `scrypt$${salt.toString('base64')}$${scryptSync('s', salt, 32).toString('base64')}`;
    expect(await verifySecret('s', earlier)).toBe(true);
    expect(await verifySecret('t', earlier)).toBe(false);
  });

  it('never match a malformed stored value, an unusable cost or the unknown-number placeholder', async () => {
    const good = await hashSecret('s', 10);
    const malformed = ['', 'plain', 'scrypt$$', 'scrypt$ln=10$$', good.replace(/^scrypt/, 'bcrypt'), good.slice(0, -8)];
    const costs = ['ln=0', 'ln=18', 'ln=99', 'ln=', 'n=10', 'ln=1e1'].map((cost) => good.replace('ln=10', cost));
    for (const stored of [...malformed, ...costs, unknownNumberHash(10)]) expect(await verifySecret('s', stored)).toBe(false);
    // the placeholder costs what a stored hash of the configured cost costs
    expect(unknownNumberHash(12)).toMatch(/^scrypt\$ln=12\$/);
  });
});
