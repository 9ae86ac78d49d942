import { CONFIG, startApp, TestApp } from '../support/test-app';

let t: TestApp;
beforeAll(async () => (t = await startApp()));
afterAll(() => t.close());

it('saves and pages a data dictionary table row', async () => {
  const saved = await t.post(`${CONFIG}/data-dictionary-table/save`, { dataDictionaryTypeCode: 'region', dataDictionaryCode: 'cn', row: '1', key: 'capital', value: 'Beijing', tenantId: 'evil', createdTime: 5 });
  expect(saved).toMatchObject({ status: 200, data: true });
  const page = await t.post(`${CONFIG}/data-dictionary-table/page`, { current: 1, pageSize: 10 });
  expect(page.extraData).toEqual({ current: 1, pages: 1, size: 10, total: 1 });
  expect(page.data[0]).toMatchObject({ tenantId: 'tenant-a', revision: 1, deleteTime: null, key: 'capital' });
  expect(typeof page.data[0].createdTime).toBe('number');
  const dup = await t.post(`${CONFIG}/data-dictionary-table/save`, { dataDictionaryTypeCode: 'region', dataDictionaryCode: 'cn', row: '1', key: 'capital' });
  expect(dup).toMatchObject({ httpStatus: 200, status: 422, error: 'Data dictionary table exists', data: null });
});
