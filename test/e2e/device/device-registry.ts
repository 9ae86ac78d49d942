/**
 * The registry of data-acquisition servers and devices (contract.md "Devices"): standard operation sets under
 * /device-service/system-api/device/, Bearer with permissions `device-<segment>:<action>`, tenant
 * isolation, numbers unique across tenants, provisioning secrets stored as salted hashes and never returned.
 */
import { DataSource } from 'typeorm';
import { DeviceTestApp, Kind, numberParam, registryPath, SECRET, startDeviceApp, uniqueNo } from '../../support/device-app';
import type { Json } from '../../support/json';
import { answerSchema } from '../../support/openapi-walk';

const RESOURCES: { kind: Kind; segment: string; idField: string; title: string; table: string }[] = [
  {
    kind: 'server',
    segment: 'data-acquisition-server',
    idField: 'dataAcquisitionServerId',
    title: 'Data acquisition server',
    table: 'device_data_acquisition_server',
  },
  {
    kind: 'device',
    segment: 'data-acquisition-device',
    idField: 'dataAcquisitionDeviceId',
    title: 'Data acquisition device',
    table: 'device_data_acquisition_device',
  },
];

const TENANT_B = { tenantId: 'tenant-b' };

/** Stored secret column, read directly (the API never returns it). */
async function storedHash(dataSource: DataSource, table: string, id: string): Promise<string> {
  const [row] = await dataSource.query(
    `SELECT secret_hash AS h FROM ${table} WHERE ${table === 'device_data_acquisition_server' ? 'data_acquisition_server_id' : 'data_acquisition_device_id'} = ?`,
    [id],
  );
  return row.h;
}

describe.each(RESOURCES)('registry: $segment', ({ kind, segment, idField, title, table }) => {
  let t: DeviceTestApp;
  beforeAll(async () => (t = await startDeviceApp()));
  afterAll(() => t?.close());

  const path = registryPath(kind);
  const noField = numberParam(kind);
  const save = (body: Json, claims?: Json) => t.post(`${path}/save`, body, claims);
  const byNo = async (no: string, claims?: Json): Promise<Json | undefined> =>
    (await t.post(`${path}/list`, { [noField]: no }, claims)).data[0];

  it('supports the standard operations', async () => {
    const no = uniqueNo(kind);
    expect(await save({ [noField]: no, name: 'first', remark: 'r', secret: SECRET })).toMatchObject({ status: 200, data: true });
    const record = (await byNo(no))!;
    expect(record).toMatchObject({
      [noField]: no,
      name: 'first',
      remark: 'r',
      tenantId: 'tenant-a',
      revision: 1,
      createdUsername: 'alice',
      deleteTime: null,
    });
    expect(record[idField]).toMatch(/^[0-9A-Za-z]{21}$/);
    expect((await t.get(`${path}/getById?id=${record[idField]}`)).data).toEqual(record);
    expect((await t.post(`${path}/count`, { [noField]: no })).data).toBe(1);
    const page = await t.post(`${path}/page`, { [noField]: no, current: 1, pageSize: 10 });
    expect(page.extraData).toEqual({ current: 1, pages: 1, size: 10, total: 1 });
    expect((await t.put(`${path}/updateById`, { [idField]: record[idField], name: 'renamed', revision: 1 })).data).toBe(true);
    expect(await byNo(no)).toMatchObject({ name: 'renamed', revision: 2 });
    expect((await t.put(`${path}/updateById`, { [idField]: record[idField], name: 'stale', revision: 1 })).status).toBe(409);
    expect((await t.del(`${path}/removeById?id=${record[idField]}`)).data).toBe(true);
    expect((await t.get(`${path}/getById?id=${record[idField]}`)).data).toBeNull();
  });

  it('needs a Bearer token and the permission device-<segment>:<action>', async () => {
    const res = await t.http().post(`${path}/list`).send({});
    expect({ http: res.status, status: res.body.status }).toEqual({ http: 401, status: 401 });
    const reader = { roles: [], permissions: [`device-${segment}:read`] };
    expect((await t.post(`${path}/list`, {}, reader)).status).toBe(200);
    expect((await save({ [noField]: uniqueNo(kind), secret: SECRET }, reader)).httpStatus).toBe(403);
    const creator = { roles: [], permissions: [`device-${segment}:create`] };
    expect((await save({ [noField]: uniqueNo(kind), secret: SECRET }, creator)).status).toBe(200);
    expect((await t.post(`${path}/list`, {}, creator)).httpStatus).toBe(403);
  });

  it('stores the secret as a salted hash of the configured cost and never returns it', async () => {
    const [a, b] = [uniqueNo(kind), uniqueNo(kind)];
    await save({ [noField]: a, secret: SECRET });
    await save({ [noField]: b, secret: SECRET });
    const [ra, rb] = [(await byNo(a))!, (await byNo(b))!];
    const [ha, hb] = [await storedHash(t.dataSource, table, ra[idField]), await storedHash(t.dataSource, table, rb[idField])];
    expect(ha).toMatch(new RegExp(`^scrypt\\$ln=${process.env.DEVICE_SECRET_HASH_COST}\\$`));
    expect(ha).not.toContain(SECRET);
    expect(ha).not.toBe(hb); // same secret, different salt
    const reads = [
      await t.get(`${path}/getById?id=${ra[idField]}`),
      await t.post(`${path}/list`, {}),
      await t.post(`${path}/page`, { current: 1, pageSize: 100 }),
    ];
    for (const read of reads) {
      const text = JSON.stringify(read);
      expect(text).not.toContain(SECRET);
      expect(text).not.toMatch(/secret|scrypt/i);
    }
  });

  it('keeps the secret when an update omits it and replaces it when given', async () => {
    const no = uniqueNo(kind);
    await save({ [noField]: no, secret: SECRET });
    const id = (await byNo(no))![idField];
    await t.put(`${path}/updateById`, { [idField]: id, name: 'no secret change' });
    expect((await t.tokenKey(kind, no, SECRET)).status).toBe(200);
    const rotated = 'rotated-secret-value-42';
    expect((await t.put(`${path}/updateById`, { [idField]: id, secret: rotated })).data).toBe(true);
    expect((await t.tokenKey(kind, no, SECRET)).httpStatus).toBe(401);
    expect((await t.tokenKey(kind, no, rotated)).status).toBe(200);
    // null means "not given" (as for every field): the stored secret stays
    expect((await t.put(`${path}/updateById`, { [idField]: id, secret: null })).status).toBe(200);
    expect((await t.tokenKey(kind, no, rotated)).status).toBe(200);
  });

  it('validates the number and the secret and stores nothing invalid', async () => {
    const cases: [Json, number, string][] = [
      [{ secret: SECRET }, 400, noField],
      [{ [noField]: uniqueNo(kind) }, 400, 'secret'],
      [{ [noField]: uniqueNo(kind), secret: 'short' }, 400, 'secret'],
      [{ [noField]: uniqueNo(kind), secret: 'x'.repeat(129) }, 400, 'secret'],
      [{ [noField]: 'has space', secret: SECRET }, 400, noField],
      [{ [noField]: 'n'.repeat(65), secret: SECRET }, 400, noField],
      [{ [noField]: 12, secret: SECRET }, 1003, noField],
    ];
    const before = (await t.post(`${path}/count`, {})).data;
    for (const [body, status, field] of cases) {
      const res = await save(body);
      expect({ body, status: res.status }).toEqual({ body, status });
      expect(res.error).toContain(field);
      expect(res.error).not.toContain(SECRET);
    }
    expect((await t.post(`${path}/count`, {})).data).toBe(before);
  });

  it("keeps tenants apart: another tenant's records behave as absent", async () => {
    const no = uniqueNo(kind);
    await save({ [noField]: no, secret: SECRET });
    const id = (await byNo(no))![idField];
    expect(await byNo(no, TENANT_B)).toBeUndefined();
    expect((await t.get(`${path}/getById?id=${id}`, TENANT_B)).data).toBeNull();
    expect((await t.post(`${path}/count`, { [noField]: no }, TENANT_B)).data).toBe(0);
    expect((await t.put(`${path}/updateById`, { [idField]: id, name: 'hijack', secret: 'hijacked-secret-value' }, TENANT_B)).data).toBe(
      false,
    );
    expect((await t.del(`${path}/removeById?id=${id}`, TENANT_B)).data).toBe(false);
    expect(await byNo(no)).toMatchObject({ name: null, revision: 1, deleteTime: null });
    expect((await t.tokenKey(kind, no, SECRET)).status).toBe(200);
  });

  it(`numbers are unique across tenants: a live number can't be saved again anywhere (422 "${title} exists")`, async () => {
    const no = uniqueNo(kind);
    await save({ [noField]: no, secret: SECRET });
    for (const claims of [undefined, TENANT_B]) {
      const res = await save({ [noField]: no, secret: SECRET }, claims);
      expect({ status: res.status, error: res.error }).toEqual({ status: 422, error: `${title} exists` });
    }
    // updateById onto a taken number is refused too
    const other = uniqueNo(kind);
    await save({ [noField]: other, secret: SECRET }, TENANT_B);
    const otherId = (await byNo(other, TENANT_B))![idField];
    expect((await t.put(`${path}/updateById`, { [idField]: otherId, [noField]: no }, TENANT_B)).status).toBe(422);
    // once deleted, the number is free again (in any tenant)
    await t.del(`${path}/removeById?id=${(await byNo(no))![idField]}`);
    expect((await save({ [noField]: no, secret: SECRET }, TENANT_B)).status).toBe(200);
  });

  it('documents the secret as write-only and keeps it out of the record schema', async () => {
    const doc = (await t.http().get('/device-service/v3/api-docs')).body;
    const saveRef = doc.paths[`${path}/save`].post.requestBody.content['application/json'].schema.$ref.split('/').pop();
    expect(doc.components.schemas[saveRef].properties.secret).toMatchObject({ type: 'string', writeOnly: true });
    const getById = doc.paths[`${path}/getById`].get;
    expect(getById['x-permission']).toBe(`device-${segment}:read`);
    const record = answerSchema(doc, getById).properties.data;
    expect(Object.keys(record.properties)).toEqual(expect.arrayContaining([noField, idField]));
    expect(JSON.stringify(record)).not.toMatch(/secret/i);
  });
});
