/** Secrets: accepted on writes, stored, never returned, kept when an update omits them. */
import type { Json } from '../json';
import { pick, seed } from './client';
import { ResourceContext } from './context';

export function describeWriteOnly({ r, c, P, id, v, invalidCases, app }: ResourceContext): void {
  if (r.writeOnly?.length)
    describe(`write-only ${r.writeOnly.join(', ')}`, () => {
      const secrets = r.writeOnly ?? [];
      /** The stored column values, read beside the API (which never shows them). */
      async function storedSecrets(recId: string): Promise<Json> {
        const meta = app().dataSource.entityMetadatas.find((m) => m.primaryColumns.some((col) => col.propertyName === r.idField))!;
        const qb = app()
          .dataSource.getRepository(meta.target)
          .createQueryBuilder('r')
          .where(`r.${r.idField} = :recId`, { recId })
          .andWhere('r.tenantId = :tenant', { tenant: 'tenant-a' });
        for (const secret of secrets) qb.addSelect(`r.${secret}`);
        return pick((await qb.getOne()) as Json, secrets);
      }
      /** No response body contains a secret's value, under any name. */
      const expectNoSecret = (res: unknown, body: Json) => {
        const text = JSON.stringify(res);
        for (const secret of secrets) expect({ secret, leaked: text.includes(String(body[secret])) }).toEqual({ secret, leaked: false });
      };

      it('save stores them; save, getById, list, page, count and listCache never return them', async () => {
        const body = r.sample(seed());
        for (const secret of secrets) expect(typeof body[secret]).toBe('string');
        const saved = await c.save(body);
        expect(saved).toMatchObject({ status: 200, data: true });
        expectNoSecret(saved, body);
        const rec = await c.find(body);
        expect(rec).toBeDefined();
        for (const secret of secrets) expect(rec).not.toHaveProperty(secret);
        const stored = await storedSecrets(id(rec!));
        for (const secret of secrets) expect(stored[secret]).toEqual(expect.any(String));

        const reads = [
          await c.getById(id(rec!)),
          await c.list({}),
          await c.page({ current: 1, pageSize: 1000 }),
          await c.list(pick(body, r.filterFields)),
        ];
        if (r.listCache) reads.push(await app().post(`${P}/listCache`, {}));
        for (const res of reads) {
          expect(res.status).toBe(200);
          expectNoSecret(res, body);
        }
        expect((reads[0].data as Json)[r.idField]).toBe(id(rec!));
      });

      it('updateById without them keeps them; with new values replaces them (still never returned)', async () => {
        const body = r.sample(seed());
        const rec = await c.create(undefined, body);
        const before = await storedSecrets(id(rec));
        const kept = await c.update({ [r.idField]: id(rec), [r.updateField]: v('no secret') });
        expect(kept).toMatchObject({ status: 200, data: true });
        expect(await storedSecrets(id(rec))).toEqual(before);

        const changed = Object.fromEntries(secrets.map((secret) => [secret, `${String(body[secret])}-rotated`]));
        const res = await c.update({ [r.idField]: id(rec), ...changed });
        expect(res).toMatchObject({ status: 200, data: true });
        expectNoSecret(res, changed);
        const after = await storedSecrets(id(rec));
        for (const secret of secrets) expect({ secret, same: after[secret] === before[secret] }).toEqual({ secret, same: false });
        expectNoSecret(await c.getById(id(rec)), changed);
        expect(await c.stored(id(rec))).not.toHaveProperty(secrets[0]);
      });

      it('a refused save or update does not echo them', async () => {
        const body = r.sample(seed());
        const rec = await c.create();
        for (const { patch } of invalidCases) {
          expectNoSecret(await c.save({ ...body, ...patch }), body);
          expectNoSecret(await c.update({ [r.idField]: id(rec), ...pick(body, secrets), ...patch }), body);
        }
        const tooLong = Object.fromEntries(secrets.map((secret) => [secret, `${String(body[secret])}${'x'.repeat(5000)}`]));
        const res = await c.save({ ...body, ...tooLong });
        expect(res.status).toBe(400);
        expectNoSecret(res, body);
      });
    });
}
