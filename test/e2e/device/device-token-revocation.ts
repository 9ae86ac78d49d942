/**
 * Device tokens are bound to the registry record and its current secret (contract.md "Devices"): rotating the
 * secret, or deleting the record and registering the number again, revokes the tokens issued before,
 * at once and on every replica (two app instances on one database here).
 */
import { decode } from 'jsonwebtoken';
import { TestDatabase } from '../../support/database';
import {
  createSharedDatabase,
  DEVICE_API,
  DeviceTestApp,
  Kind,
  numberParam,
  registryPath,
  SECRET,
  SERVER_API,
  startDeviceApp,
  uniqueNo,
} from '../../support/device-app';

const KINDS: Kind[] = ['device', 'server'];
const ROTATED = 'rotated-provisioning-secret-02';
const idField = (kind: Kind) => (kind === 'device' ? 'dataAcquisitionDeviceId' : 'dataAcquisitionServerId');

/** A read and a write of each kind, both token-checked. */
const ownRecordCall = (t: DeviceTestApp, kind: Kind, no: string, token: string) =>
  kind === 'device'
    ? t.call('get', `${DEVICE_API}/getByDataAcquisitionDeviceNo`, { dataAcquisitionDeviceNo: no, token })
    : t.call('post', `${SERVER_API}/listByDataAcquisitionServerNo`, { dataAcquisitionServerNo: no, token });
const writeCall = (t: DeviceTestApp, kind: Kind, no: string, token: string) =>
  kind === 'device'
    ? t.call(
        'post',
        `${DEVICE_API}/pushInfoByDataAcquisitionDeviceNo`,
        { dataAcquisitionDeviceNo: no, token },
        { firmwareVersion: 'revoked-write' },
      )
    : t.call(
        'put',
        `${SERVER_API}/updateInternalIpByDataAcquisitionServerNo`,
        { dataAcquisitionServerNo: no, token },
        { internalIp: '10.9.9.9' },
      );

describe('device token revocation', () => {
  let shared: TestDatabase;
  let a: DeviceTestApp;
  let b: DeviceTestApp;
  beforeAll(async () => {
    shared = await createSharedDatabase();
    a = await startDeviceApp({}, { shared });
    b = await startDeviceApp({}, { shared });
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await shared?.drop();
  });

  const recordOf = async (t: DeviceTestApp, kind: Kind, no: string) =>
    (await t.post(`${registryPath(kind)}/list`, { [numberParam(kind)]: no })).data[0];

  /** Every token-checked call of both replicas refuses the token (401) and changed nothing. */
  async function expectRevoked(kind: Kind, no: string, token: string): Promise<void> {
    for (const t of [a, b]) {
      for (const res of [await ownRecordCall(t, kind, no, token), await writeCall(t, kind, no, token)])
        expect({ http: res.httpStatus, status: res.status, data: res.data }).toEqual({ http: 401, status: 401, data: null });
    }
    const record = await recordOf(a, kind, no);
    if (record) expect(kind === 'device' ? record.firmwareVersion : record.internalIp).toBeNull();
  }

  describe.each(KINDS)('%s', (kind) => {
    it('rotating the secret on one replica revokes earlier tokens on both, at once', async () => {
      const no = await a.register(kind, uniqueNo(kind), SECRET);
      const token = await a.token(kind, no, SECRET);
      expect((await ownRecordCall(b, kind, no, token)).status).toBe(200);
      const id = (await recordOf(b, kind, no))[idField(kind)];
      expect((await b.put(`${registryPath(kind)}/updateById`, { [idField(kind)]: id, secret: ROTATED })).data).toBe(true);
      await expectRevoked(kind, no, token);
      // a token for the new secret works on both
      const fresh = await b.token(kind, no, ROTATED);
      for (const t of [a, b]) expect((await ownRecordCall(t, kind, no, fresh)).status).toBe(200);
    });

    it('setting the same secret again also revokes (each stored secret is a new one)', async () => {
      const no = await a.register(kind, uniqueNo(kind), SECRET);
      const token = await a.token(kind, no, SECRET);
      const id = (await recordOf(a, kind, no))[idField(kind)];
      expect((await a.put(`${registryPath(kind)}/updateById`, { [idField(kind)]: id, secret: SECRET })).data).toBe(true);
      await expectRevoked(kind, no, token);
      expect((await ownRecordCall(a, kind, no, await a.token(kind, no, SECRET))).status).toBe(200);
    });

    it('an update that leaves the secret alone keeps the tokens valid', async () => {
      const no = await a.register(kind, uniqueNo(kind), SECRET);
      const token = await a.token(kind, no, SECRET);
      const id = (await recordOf(a, kind, no))[idField(kind)];
      expect((await b.put(`${registryPath(kind)}/updateById`, { [idField(kind)]: id, name: 'renamed, same secret' })).data).toBe(true);
      for (const t of [a, b]) expect((await ownRecordCall(t, kind, no, token)).status).toBe(200);
      expect((await writeCall(b, kind, no, token)).status).toBe(200);
    });

    it('deleting the record revokes earlier tokens, and so does registering the number again in the same tenant with the same secret', async () => {
      const no = await a.register(kind, uniqueNo(kind), SECRET);
      const token = await a.token(kind, no, SECRET);
      const id = (await recordOf(a, kind, no))[idField(kind)];
      expect((await a.del(`${registryPath(kind)}/removeById?id=${id}`)).data).toBe(true);
      await expectRevoked(kind, no, token);
      await b.register(kind, no, SECRET);
      expect((await recordOf(a, kind, no))[idField(kind)]).not.toBe(id);
      await expectRevoked(kind, no, token);
    });

    it('the token names its record and a keyed fingerprint of the secret, never the stored hash', async () => {
      const no = await a.register(kind, uniqueNo(kind), SECRET);
      const token = await a.token(kind, no, SECRET);
      const claims = decode(token) as Record<string, unknown>;
      const record = await recordOf(a, kind, no);
      expect(claims).toMatchObject({ sub: no, kind, tenantId: 'tenant-a', rid: record[idField(kind)], sfp: expect.any(String) });
      const [{ hash }] = await a.dataSource.query(
        `SELECT secret_hash AS hash FROM device_data_acquisition_${kind} WHERE data_acquisition_${kind}_no = ?`,
        [no],
      );
      const [, salt, key] = String(hash).split('$');
      const text = Buffer.from(token.split('.')[1], 'base64url').toString('utf8');
      for (const part of [hash, salt, key, SECRET]) expect(text).not.toContain(part);
    });
  });
});
