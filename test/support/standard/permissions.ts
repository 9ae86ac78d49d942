/** Each action's permission grants its operations and nothing more. */
import { ALL_RESOURCES } from '../tables';
import { Claims } from '../tokens';
import { seed } from './client';
import { ResourceContext } from './context';

export function describePermissions({ r, c, P, id, v, app }: ResourceContext): void {
  describe(`permissions (${r.permission}:<action>)`, () => {
    const as = (sub: string, ...actions: string[]): Claims => ({
      sub,
      roles: [],
      permissions: actions.map((a) => `${r.permission}:${a}`),
    });
    const reader = as('rita', 'read');

    it('read: count, getById, list and page work; save, updateById and remove are refused with 403', async () => {
      const rec = await c.create();
      const countBefore = await c.count();
      expect(await c.page({ current: 1, pageSize: 10 }, reader)).toMatchObject({ status: 200 });
      expect(await c.count({}, reader)).toBe(countBefore);
      expect(await c.list({}, reader)).toMatchObject({ status: 200 });
      expect(await c.getById(id(rec), reader)).toMatchObject({ status: 200, data: rec });

      const forbidden = { httpStatus: 403, status: 403, data: null };
      expect(await c.save(r.sample(seed()), reader)).toMatchObject({ ...forbidden, path: `${P}/save` });
      expect(await c.update({ [r.idField]: id(rec), [r.updateField]: v('x') }, reader)).toMatchObject({
        ...forbidden,
        path: `${P}/updateById`,
      });
      expect(await c.removeById(id(rec), reader)).toMatchObject({ ...forbidden, path: `${P}/removeById` });
      expect(await c.removeByIds([id(rec)], reader)).toMatchObject({ ...forbidden, path: `${P}/removeByIds` });
      expect(await c.count()).toBe(countBefore);
      expect(await c.stored(id(rec))).toEqual(rec);
    });

    it('create: save works (stamped with the caller) but reading is refused', async () => {
      const creator = as('cora', 'create');
      const body = r.sample(seed());
      expect(await c.save(body, creator)).toMatchObject({ status: 200, data: true });
      expect(await c.find(body)).toMatchObject({ createdUsername: 'cora', tenantId: 'tenant-a' });
      expect(await c.page({ current: 1, pageSize: 10 }, creator)).toMatchObject({ httpStatus: 403, status: 403 });
      expect(await c.countRaw({}, creator)).toMatchObject({ httpStatus: 403, status: 403 });
    });

    it('update: updateById works; save and remove are refused', async () => {
      const updater = as('ursula', 'update');
      const rec = await c.create();
      expect(await c.update({ [r.idField]: id(rec), [r.updateField]: v('by updater') }, updater)).toMatchObject({
        status: 200,
        data: true,
      });
      expect(await c.stored(id(rec))).toMatchObject({ [r.updateField]: v('by updater'), lastModifiedUsername: 'ursula', revision: 2 });
      expect(await c.save(r.sample(seed()), updater)).toMatchObject({ httpStatus: 403, status: 403 });
      expect(await c.removeById(id(rec), updater)).toMatchObject({ httpStatus: 403, status: 403 });
    });

    it('delete: removeById and removeByIds work; updateById is refused', async () => {
      const deleter = as('dora', 'delete');
      const [a, b] = [await c.create(), await c.create()];
      expect(await c.update({ [r.idField]: id(a), [r.updateField]: v('x') }, deleter)).toMatchObject({ httpStatus: 403, status: 403 });
      expect(await c.removeById(id(a), deleter)).toMatchObject({ status: 200, data: true });
      expect(await c.removeByIds([id(b), 'NoSuchRecord1'], deleter)).toMatchObject({ status: 200, data: true });
      expect(await c.getById(id(a))).toMatchObject({ data: null });
      expect(await c.getById(id(b))).toMatchObject({ data: null });
    });

    it('a permission of another resource or of a bare action grants nothing; no token gives 401', async () => {
      const other = ALL_RESOURCES.find((x) => x.permission !== r.permission)!;
      const stranger: Claims = {
        sub: 'sam',
        roles: ['user'],
        permissions: [`${other.permission}:read`, `${other.permission}:create`, 'read', 'create', r.permission],
      };
      expect(await c.page({ current: 1, pageSize: 10 }, stranger)).toMatchObject({ httpStatus: 403, status: 403 });
      expect(await c.save(r.sample(seed()), stranger)).toMatchObject({ httpStatus: 403, status: 403 });
      const anonymous = await app().http().post(`${P}/page`).send({});
      expect(anonymous.status).toBe(401);
      expect(anonymous.body).toMatchObject({ status: 401, path: `${P}/page`, data: null });
    });
  });
}
