/** The standard operations of the configuration group (test/support/standard/), and the permission names the contract shows. */
import { seed } from '../support/standard/client';
import { describeStandardCrud } from '../support/standard/suite';
import { resourceSpec } from '../support/tables';
import { Claims } from '../support/tokens';

const { limitedClient } = describeStandardCrud('configuration');

describe('permission names shown in the spec', () => {
  const token = (permission: string): Claims => ({ sub: 'pat', roles: [], permissions: [permission] });

  it('configuration-data-dictionary-table:read pages data dictionary tables (and nothing more)', async () => {
    const c = limitedClient(resourceSpec('data-dictionary-table'));
    const claims = token('configuration-data-dictionary-table:read');
    const res = await c.page({ current: 1, pageSize: 5 }, claims);
    expect(res).toMatchObject({ status: 200 });
    expect(Object.keys(res.extraData).sort()).toEqual(['current', 'pages', 'size', 'total']);
    expect(await c.save(resourceSpec('data-dictionary-table').sample(seed()), claims)).toMatchObject({ httpStatus: 403, status: 403 });
  });

  it('configuration-data-dictionary-map:create saves data dictionary maps (and nothing more)', async () => {
    const r = resourceSpec('data-dictionary-map');
    const c = limitedClient(r);
    const claims = token('configuration-data-dictionary-map:create');
    const body = r.sample(seed());
    expect(await c.save(body, claims)).toMatchObject({ status: 200, data: true });
    expect(await c.find(body)).toMatchObject({ createdUsername: 'pat' });
    expect(await c.page({ current: 1, pageSize: 5 }, claims)).toMatchObject({ httpStatus: 403, status: 403 });
  });

  it('value-set-table:delete removes value set table rows by ids (and nothing more)', async () => {
    const r = resourceSpec('value-set-table');
    const c = limitedClient(r);
    const claims = token('value-set-table:delete');
    const rec = await c.create();
    expect(await c.removeByIds([rec[r.idField], 'NoSuchRecord1'], claims)).toMatchObject({ status: 200, data: true });
    expect(await c.getById(rec[r.idField])).toMatchObject({ data: null });
    expect(await c.save(r.sample(seed()), claims)).toMatchObject({ httpStatus: 403, status: 403 });
  });
});
