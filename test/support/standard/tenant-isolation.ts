/** Every operation sees and changes the caller's tenant only. */
import type { Json } from '../json';
import { pick, seed } from './client';
import { ResourceContext, TENANT_B } from './context';

export function describeTenantIsolation({ r, c, id, v }: ResourceContext): void {
  describe('tenant isolation', () => {
    it('another tenant’s id behaves as absent in every operation', async () => {
      const rec = await c.create();
      await c.create(undefined, {}, TENANT_B);
      const countB = await c.count({}, TENANT_B);

      expect(await c.getById(id(rec), TENANT_B)).toMatchObject({ status: 200, data: null });
      expect(await c.update({ [r.idField]: id(rec), [r.updateField]: v('hijacked') }, TENANT_B)).toMatchObject({
        status: 200,
        data: false,
      });
      expect(await c.update({ [r.idField]: id(rec), revision: 1, [r.updateField]: v('hijacked') }, TENANT_B)).toMatchObject({
        status: 200,
        data: false,
      });
      expect(await c.removeById(id(rec), TENANT_B)).toMatchObject({ status: 200, data: false });
      expect(await c.removeByIds([id(rec)], TENANT_B)).toMatchObject({ status: 200, data: false });

      const listed = await c.list({}, TENANT_B);
      expect((listed.data as Json[]).map(id)).not.toContain(id(rec));
      expect((listed.data as Json[]).every((x) => x.tenantId === 'tenant-b')).toBe(true);
      const paged = await c.page({ current: 1, pageSize: 1000 }, TENANT_B);
      expect((paged.data as Json[]).map(id)).not.toContain(id(rec));
      expect(paged.extraData.total).toBe(countB);
      expect(await c.count(pick(rec, r.filterFields), TENANT_B)).toBe(0);
      expect(await c.count({}, TENANT_B)).toBe(countB);

      expect(await c.stored(id(rec))).toEqual(rec);
    });

    it('another tenant’s identifier acts as absent: saving with it creates that tenant’s own record and never touches the first', async () => {
      const rec = await c.create();
      const res = await c.save({ ...r.sample(seed()), [r.idField]: id(rec), [r.updateField]: v('overwritten') }, TENANT_B);
      expect(res).toMatchObject({ status: 200, data: true }); // no 422: that would reveal the id exists elsewhere
      expect(await c.stored(id(rec))).toEqual(rec);
      expect((await c.getById(id(rec), TENANT_B)).data).toMatchObject({ tenantId: 'tenant-b', [r.updateField]: v('overwritten') });
    });

    it('the same key may be live in two tenants', async () => {
      const body = r.sample(seed());
      const a = await c.create(undefined, body);
      const b = await c.create(undefined, body, TENANT_B);
      expect(id(b)).not.toBe(id(a));
      expect(b).toMatchObject({ tenantId: 'tenant-b', createdUsername: 'bert' });
    });

    it('a tenantId in the body is ignored on save, updateById, page, list and count', async () => {
      const body = r.sample(seed());
      expect(await c.save({ ...body, tenantId: 'tenant-b' })).toMatchObject({ status: 200, data: true });
      const rec = await c.find(body);
      expect(rec).toMatchObject({ tenantId: 'tenant-a' });
      expect(await c.find(body, TENANT_B)).toBeUndefined();

      expect(await c.update({ [r.idField]: id(rec!), tenantId: 'tenant-b', [r.updateField]: v('moved?') })).toMatchObject({
        status: 200,
        data: true,
      });
      expect(await c.stored(id(rec!))).toMatchObject({ tenantId: 'tenant-a', [r.updateField]: v('moved?') });
      expect(await c.getById(id(rec!), TENANT_B)).toMatchObject({ data: null });

      const countB = await c.count({}, TENANT_B);
      const paged = await c.page({ tenantId: 'tenant-a', current: 1, pageSize: 1000 }, TENANT_B);
      expect(paged.status).toBe(200);
      expect((paged.data as Json[]).every((x) => x.tenantId === 'tenant-b')).toBe(true);
      expect(paged.extraData.total).toBe(countB);
      const listed = await c.list({ tenantId: 'tenant-a' }, TENANT_B);
      expect((listed.data as Json[]).every((x) => x.tenantId === 'tenant-b')).toBe(true);
      expect(await c.count({ tenantId: 'tenant-a' }, TENANT_B)).toBe(countB);
      expect(await c.update({ [r.idField]: id(rec!), tenantId: 'tenant-a', [r.updateField]: v('x') }, TENANT_B)).toMatchObject({
        data: false,
      });
    });
  });
}
