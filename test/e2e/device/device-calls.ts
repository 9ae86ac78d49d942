/**
 * The 7 operations of the spec's device group (paths and methods from the spec, parameters and
 * behaviour from contract.md "Devices"): own records, pushInfo with binding lifecycles across servers,
 * listByDataAcquisitionServerNo, updateInternalIp validation, and the OpenAPI document.
 */
import { DEVICE_API, DeviceTestApp, registryPath, SECRET, SERVER_API, startDeviceApp, uniqueNo } from '../../support/device-app';
import type { Json } from '../../support/json';

const LIFECYCLE_KEYS = ['bindTime', 'dataAcquisitionDeviceNo', 'dataAcquisitionServerNo', 'state', 'unbindTime'];

describe('device calls', () => {
  let t: DeviceTestApp;
  beforeAll(async () => (t = await startDeviceApp()));
  afterAll(() => t?.close());

  /** A registered device and two servers of tenant-a, with their tokens. */
  async function fleet() {
    const device = await t.register('device', uniqueNo('dad'), SECRET);
    const s1 = await t.register('server', uniqueNo('das'), SECRET);
    const s2 = await t.register('server', uniqueNo('das'), SECRET);
    return {
      device,
      s1,
      s2,
      deviceToken: await t.token('device', device, SECRET),
      s1Token: await t.token('server', s1, SECRET),
      s2Token: await t.token('server', s2, SECRET),
    };
  }

  const push = (no: string, token: string, body: unknown) =>
    t.call('post', `${DEVICE_API}/pushInfoByDataAcquisitionDeviceNo`, { dataAcquisitionDeviceNo: no, token }, body);
  const getDevice = (no: string, token: string) =>
    t.call('get', `${DEVICE_API}/getByDataAcquisitionDeviceNo`, { dataAcquisitionDeviceNo: no, token });
  const lifecycles = async (serverNo: string, token: string): Promise<Json[]> => {
    const res = await t.call('post', `${DEVICE_API}/listByDataAcquisitionServerNo`, { dataAcquisitionServerNo: serverNo, token });
    expect({ status: res.status, error: res.error }).toEqual({ status: 200, error: null });
    return res.data;
  };
  const updateIp = (no: string, token: string, body: unknown) =>
    t.call('put', `${SERVER_API}/updateInternalIpByDataAcquisitionServerNo`, { dataAcquisitionServerNo: no, token }, body);
  const listServer = (no: string, token: string) =>
    t.call('post', `${SERVER_API}/listByDataAcquisitionServerNo`, { dataAcquisitionServerNo: no, token });

  it('getByDataAcquisitionDeviceNo returns the calling device (no secret)', async () => {
    const { device, deviceToken } = await fleet();
    const res = await getDevice(device, deviceToken);
    expect(res).toMatchObject({
      status: 200,
      data: { dataAcquisitionDeviceNo: device, tenantId: 'tenant-a', name: `device ${device}`, lastSeenTime: null, deleteTime: null },
    });
    expect(JSON.stringify(res)).not.toMatch(/secret|scrypt/i);
  });

  it('pushInfo stores the report and the last-seen time', async () => {
    const { device, deviceToken, s1 } = await fleet();
    const before = Date.now();
    const report = {
      firmwareVersion: '2.4.1',
      model: 'DA-200',
      ipAddress: '192.168.1.23',
      macAddress: '00:1A:2B:3C:4D:5E',
      dataAcquisitionServerNo: s1,
      batteryLevel: 87,
    };
    expect(await push(device, deviceToken, report)).toMatchObject({ httpStatus: 200, status: 200, data: true });
    const { data } = await getDevice(device, deviceToken);
    expect(data).toMatchObject(report);
    expect(typeof data.lastSeenTime).toBe('number');
    expect(data.lastSeenTime).toBeGreaterThanOrEqual(before);
    expect(data.lastSeenTime).toBeLessThanOrEqual(Date.now());
    // the registry shows the same report to operators
    const [viaRegistry] = (await t.post(`${registryPath('device')}/list`, { dataAcquisitionDeviceNo: device })).data;
    expect(viaRegistry).toMatchObject({ ...report, lastSeenTime: data.lastSeenTime });
    // a push replaces the previous report: omitted fields are cleared
    expect(
      (await push(device, deviceToken, { firmwareVersion: '2.5.0', dataAcquisitionServerNo: s1, ipAddress: '2001:db8::7' })).data,
    ).toBe(true);
    expect((await getDevice(device, deviceToken)).data).toMatchObject({
      firmwareVersion: '2.5.0',
      model: null,
      ipAddress: '2001:db8::7',
      batteryLevel: null,
    });
  });

  it('binding lifecycles follow the reported server across two servers', async () => {
    const { device, deviceToken, s1, s2, s1Token, s2Token } = await fleet();
    expect(await lifecycles(s1, s1Token)).toEqual([]);

    await push(device, deviceToken, { dataAcquisitionServerNo: s1 });
    const [first] = await lifecycles(s1, s1Token);
    expect(Object.keys(first).sort()).toEqual(LIFECYCLE_KEYS);
    expect(first).toMatchObject({ dataAcquisitionDeviceNo: device, dataAcquisitionServerNo: s1, state: 'BOUND', unbindTime: null });

    // the same server again: still one open lifecycle, unchanged
    await push(device, deviceToken, { dataAcquisitionServerNo: s1, batteryLevel: 50 });
    expect(await lifecycles(s1, s1Token)).toEqual([first]);

    // another server: the open one is closed, a new one opened on s2
    await push(device, deviceToken, { dataAcquisitionServerNo: s2 });
    const [closed] = await lifecycles(s1, s1Token);
    expect(closed).toMatchObject({
      dataAcquisitionDeviceNo: device,
      dataAcquisitionServerNo: s1,
      bindTime: first.bindTime,
      state: 'UNBOUND',
    });
    expect(closed.unbindTime).toBeGreaterThanOrEqual(first.bindTime);
    const [onS2] = await lifecycles(s2, s2Token);
    expect(onS2).toMatchObject({ dataAcquisitionDeviceNo: device, dataAcquisitionServerNo: s2, state: 'BOUND', unbindTime: null });
    expect(onS2.bindTime).toBe(closed.unbindTime);

    // back to s1: a second lifecycle on s1, newest first
    await push(device, deviceToken, { dataAcquisitionServerNo: s1 });
    const s1History = await lifecycles(s1, s1Token);
    expect(s1History.map((l) => l.state)).toEqual(['BOUND', 'UNBOUND']);
    expect((await lifecycles(s2, s2Token))[0].state).toBe('UNBOUND');

    // no server reported: the open lifecycle is closed, none opened
    await push(device, deviceToken, {});
    expect((await lifecycles(s1, s1Token)).map((l) => l.state)).toEqual(['UNBOUND', 'UNBOUND']);
    expect((await getDevice(device, deviceToken)).data.dataAcquisitionServerNo).toBeNull();

    // a server sees only its own devices' lifecycles, and only with its own token
    const res = await t.call('post', `${DEVICE_API}/listByDataAcquisitionServerNo`, { dataAcquisitionServerNo: s2, token: s1Token });
    expect(res.httpStatus).toBe(403);
  });

  it('concurrent reports of one device leave exactly one open lifecycle, on the server stored last', async () => {
    const { device, deviceToken, s1, s2, s1Token, s2Token } = await fleet();
    await Promise.all(
      Array.from({ length: 12 }, (_, i) => push(device, deviceToken, { dataAcquisitionServerNo: i % 2 ? s2 : s1 })).map(async (p) =>
        expect((await p).status).toBe(200),
      ),
    );
    const all = [...(await lifecycles(s1, s1Token)), ...(await lifecycles(s2, s2Token))];
    const open = all.filter((l) => l.state === 'BOUND');
    expect(open).toHaveLength(1);
    expect(open[0].unbindTime).toBeNull();
    expect(all.filter((l) => l.state === 'UNBOUND').every((l) => l.unbindTime !== null)).toBe(true);
    expect((await getDevice(device, deviceToken)).data.dataAcquisitionServerNo).toBe(open[0].dataAcquisitionServerNo);
  });

  it("pushInfo refuses an unregistered server or another tenant's server and changes nothing", async () => {
    const { device, deviceToken, s1, s1Token } = await fleet();
    await push(device, deviceToken, { dataAcquisitionServerNo: s1, model: 'before' });
    const before = (await getDevice(device, deviceToken)).data;
    const foreign = await t.register('server', uniqueNo('das-b'), SECRET, { tenantId: 'tenant-b' });
    for (const serverNo of [uniqueNo('unregistered'), foreign]) {
      const res = await push(device, deviceToken, { dataAcquisitionServerNo: serverNo, model: 'after' });
      expect({ http: res.httpStatus, status: res.status }).toEqual({ http: 200, status: 400 });
      expect(res.error).toContain('dataAcquisitionServerNo');
    }
    expect((await getDevice(device, deviceToken)).data).toEqual(before);
    expect((await lifecycles(s1, s1Token)).map((l) => l.state)).toEqual(['BOUND']);
  });

  it('pushInfo validates the report (400 bad value, 1003 wrong type, 1004 malformed JSON) and changes nothing', async () => {
    const { device, deviceToken } = await fleet();
    const cases: [unknown, number, string][] = [
      [{ ipAddress: '999.1.1.1' }, 400, 'ipAddress'],
      [{ ipAddress: 'localhost' }, 400, 'ipAddress'],
      [{ macAddress: '00:1A:2B' }, 400, 'macAddress'],
      [{ batteryLevel: 101 }, 400, 'batteryLevel'],
      [{ batteryLevel: -1 }, 400, 'batteryLevel'],
      [{ dataAcquisitionServerNo: ' das ' }, 400, 'dataAcquisitionServerNo'],
      [{ firmwareVersion: 'x'.repeat(65) }, 400, 'firmwareVersion'],
      [{ batteryLevel: '50' }, 1003, 'batteryLevel'],
      [{ model: 7 }, 1003, 'model'],
    ];
    for (const [body, status, field] of cases) {
      const res = await push(device, deviceToken, body);
      expect({ body, status: res.status }).toEqual({ body, status });
      expect(res.error).toContain(field);
    }
    const malformed = await t
      .http()
      .post(`${DEVICE_API}/pushInfoByDataAcquisitionDeviceNo`)
      .query({ dataAcquisitionDeviceNo: device, token: deviceToken })
      .set('Content-Type', 'application/json')
      .send('{"model":');
    expect(malformed.body.status).toBe(1004);
    expect((await getDevice(device, deviceToken)).data.lastSeenTime).toBeNull();
  });

  it('a missing or repeated number is a parameter error even with a valid token', async () => {
    const { device, deviceToken } = await fleet();
    expect((await t.call('get', `${DEVICE_API}/getByDataAcquisitionDeviceNo`, { token: deviceToken })).status).toBe(1002);
    const repeated = await t
      .http()
      .get(
        `${DEVICE_API}/getByDataAcquisitionDeviceNo?dataAcquisitionDeviceNo=${device}&dataAcquisitionDeviceNo=${device}&token=${deviceToken}`,
      );
    expect(repeated.body.status).toBe(1003);
  });

  it('data-acquisition-server/listByDataAcquisitionServerNo returns the calling server as a list of one (no secret)', async () => {
    const { s1, s1Token } = await fleet();
    const res = await listServer(s1, s1Token);
    expect(res.status).toBe(200);
    expect(res.data).toHaveLength(1);
    expect(res.data[0]).toMatchObject({ dataAcquisitionServerNo: s1, tenantId: 'tenant-a', internalIp: null });
    expect(JSON.stringify(res)).not.toMatch(/secret|scrypt/i);
  });

  it('updateInternalIp stores IPv4 and IPv6 addresses', async () => {
    const { s1, s1Token } = await fleet();
    for (const ip of ['10.0.4.17', '2001:db8::1', '::ffff:192.0.2.128']) {
      const before = Date.now();
      expect(await updateIp(s1, s1Token, { internalIp: ip })).toMatchObject({ httpStatus: 200, status: 200, data: true });
      const [server] = (await listServer(s1, s1Token)).data;
      expect(server.internalIp).toBe(ip);
      expect(server.internalIpTime).toBeGreaterThanOrEqual(before);
    }
  });

  it('updateInternalIp refuses anything but an IPv4 or IPv6 address and keeps the stored one', async () => {
    const { s1, s1Token } = await fleet();
    await updateIp(s1, s1Token, { internalIp: '10.0.0.1' });
    const cases: [unknown, number][] = [
      [{ internalIp: '256.0.0.1' }, 400],
      [{ internalIp: '10.0.0' }, 400],
      [{ internalIp: '2001:db8:::1' }, 400],
      [{ internalIp: 'server.local' }, 400],
      [{ internalIp: ' 10.0.0.2' }, 400],
      [{ internalIp: '' }, 400],
      [{}, 400],
      [{ internalIp: null }, 400],
      [{ internalIp: 167772162 }, 1003],
    ];
    for (const [body, status] of cases) {
      const res = await updateIp(s1, s1Token, body);
      expect({ body, status: res.status }).toEqual({ body, status });
      expect(res.error).toContain('internalIp');
    }
    expect((await listServer(s1, s1Token)).data[0].internalIp).toBe('10.0.0.1');
  });

  describe('OpenAPI document', () => {
    let doc: Json;
    beforeAll(async () => (doc = (await t.http().get('/device-service/v3/api-docs')).body));

    const DEVICE_GROUP: [string, string][] = [
      ['get', '/device-service/main-api/device/data-acquisition-device/getByDataAcquisitionDeviceNo'],
      ['get', '/device-service/main-api/device/data-acquisition-device/getGenerationTokenKeyByDataAcquisitionDeviceNo'],
      ['post', '/device-service/main-api/device/data-acquisition-device/listByDataAcquisitionServerNo'],
      ['post', '/device-service/main-api/device/data-acquisition-device/pushInfoByDataAcquisitionDeviceNo'],
      ['get', '/device-service/main-api/device/data-acquisition-server/getGenerationTokenKeyByDataAcquisitionServerNo'],
      ['post', '/device-service/main-api/device/data-acquisition-server/listByDataAcquisitionServerNo'],
      ['put', '/device-service/main-api/device/data-acquisition-server/updateInternalIpByDataAcquisitionServerNo'],
    ];

    it('has exactly the 7 device-group operations of the spec under main-api', () => {
      const mainApi = Object.entries(doc.paths as Json)
        .filter(([path]) => path.startsWith('/device-service/main-api/'))
        .flatMap(([path, ops]) => Object.keys(ops).map((method) => [method, path]));
      expect(mainApi.sort()).toEqual([...DEVICE_GROUP].sort());
    });

    it('documents the token query parameter as the security scheme of the token-checked calls', () => {
      expect(doc.components.securitySchemes.deviceToken).toMatchObject({ type: 'apiKey', in: 'query', name: 'token' });
      for (const [method, path] of DEVICE_GROUP) {
        const op = doc.paths[path][method];
        const params = (op.parameters ?? []).map((p: Json) => p.name);
        if (path.includes('getGenerationTokenKey')) {
          expect(params).toEqual(expect.arrayContaining(['secret']));
          expect(op.security ?? []).not.toContainEqual({ deviceToken: [] });
        } else {
          expect(op.security).toContainEqual({ deviceToken: [] });
          expect(params).toContain(path.includes('DeviceNo') ? 'dataAcquisitionDeviceNo' : 'dataAcquisitionServerNo');
        }
      }
    });

    it('documents the bodies of pushInfo and updateInternalIp', () => {
      const ref = (method: string, path: string) =>
        doc.paths[path][method].requestBody.content['application/json'].schema.$ref.split('/').pop();
      expect(doc.components.schemas[ref('post', DEVICE_GROUP[3][1])].properties).toHaveProperty('dataAcquisitionServerNo');
      expect(doc.components.schemas[ref('put', DEVICE_GROUP[6][1])].properties.internalIp).toBeDefined();
    });

    it('serves Swagger UI', async () => {
      const res = await t.http().get('/device-service/swagger-ui/');
      expect(res.status).toBe(200);
      expect(res.text).toContain('swagger');
    });
  });
});
