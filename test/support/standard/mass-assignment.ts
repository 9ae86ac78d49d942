/** Fields the server owns (tenant, stamps, revision, deletion) cannot be written by a body. */
import { seed } from './client';
import { ResourceContext, TENANT_B } from './context';

export function describeMassAssignment({ r, c, id, v }: ResourceContext): void {
  describe('mass assignment', () => {
    const forged = {
      createdTime: 5,
      createdUsername: 'mallory',
      lastModifiedTime: 6,
      lastModifiedUsername: 'mallory',
      deleteTime: 7,
      tenantId: 'tenant-b',
    };

    it('server-owned fields sent on save are ignored', async () => {
      const body = r.sample(seed());
      const before = Date.now();
      expect(await c.save({ ...body, ...forged, revision: 99 })).toMatchObject({ status: 200, data: true });
      const rec = await c.find(body);
      expect(rec).toMatchObject({
        tenantId: 'tenant-a',
        revision: 1,
        createdUsername: 'alice',
        lastModifiedUsername: 'alice',
        deleteTime: null,
      });
      expect(rec!.createdTime).toBeGreaterThanOrEqual(before);
      expect(rec!.lastModifiedTime).toBeGreaterThanOrEqual(before);
      expect(await c.stored(id(rec!))).toEqual(rec);
      expect(await c.find(body, TENANT_B)).toBeUndefined();
    });

    it('server-owned fields sent on updateById are ignored', async () => {
      const rec = await c.create();
      const before = Date.now();
      expect(await c.update({ [r.idField]: id(rec), ...forged, [r.updateField]: v('changed'), deleteTime: Date.now() })).toMatchObject({
        status: 200,
        data: true,
      });
      const after = await c.stored(id(rec));
      expect(after).toEqual({ ...rec, [r.updateField]: v('changed'), revision: 2, lastModifiedTime: expect.any(Number) });
      expect(after!.lastModifiedTime).toBeGreaterThanOrEqual(before);
    });
  });
}
