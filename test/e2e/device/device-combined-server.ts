/**
 * The embedded default (contract.md "Services and groups"): one port serves /main-service/... and /device-service/..., each
 * app with its own documents, routes and envelopes. SQLite in memory (the combined server is SQLite only).
 */
import request from 'supertest';
import { CombinedServer, createCombinedServer } from '../../../apps/local/src/combined-server';
import { usingMysql } from '../../support/database';
import { TEST_DEVICE_TOKEN_SECRET } from '../../support/device-app';
import { withProcessEnv } from '../../support/process-env';
import { bearer, TEST_JWT_SECRET } from '../../support/tokens';

const sqliteIt = usingMysql() ? it.skip : it;

describe('combined local server', () => {
  let combined: CombinedServer | undefined;
  const http = () => request(combined!.server);

  beforeAll(async () => {
    if (usingMysql()) return;
    combined = await withProcessEnv(
      { SQLITE_DIR: ':memory:', JWT_SECRET: TEST_JWT_SECRET, DEVICE_TOKEN_SECRET: TEST_DEVICE_TOKEN_SECRET, LOG_LEVEL: 'fatal' },
      createCombinedServer,
    );
  });
  afterAll(() => combined?.close());

  sqliteIt('serves each service its own OpenAPI document and Swagger UI', async () => {
    const main = await http().get('/main-service/v3/api-docs');
    const device = await http().get('/device-service/v3/api-docs');
    expect([main.status, device.status]).toEqual([200, 200]);
    expect([main.body.info.title, device.body.info.title]).toEqual(['main-service', 'device-service']);
    expect(Object.keys(main.body.paths).every((p) => p.startsWith('/main-service/'))).toBe(true);
    expect(Object.keys(device.body.paths).every((p) => p.startsWith('/device-service/'))).toBe(true);
    for (const ui of ['/main-service/swagger-ui/', '/device-service/swagger-ui/']) expect((await http().get(ui)).status).toBe(200);
  });

  sqliteIt('routes calls to both services on the one port', async () => {
    const registry = await http()
      .post('/device-service/system-api/device/data-acquisition-server/save')
      .set('Authorization', bearer())
      .send({ dataAcquisitionServerNo: 'DAS-combined', secret: 'provisioning-secret-0001' });
    expect(registry.body).toMatchObject({ status: 200, data: true });
    const token = await http()
      .get('/device-service/main-api/device/data-acquisition-server/getGenerationTokenKeyByDataAcquisitionServerNo')
      .query({ dataAcquisitionServerNo: 'DAS-combined', secret: 'provisioning-secret-0001' });
    expect(token.body.data.token).toEqual(expect.any(String));
    const ddt = await http()
      .post('/main-service/system-api/configuration/data-dictionary-type/count')
      .set('Authorization', bearer())
      .send({});
    expect(ddt.body).toMatchObject({ status: 200, data: 0 });
  });

  sqliteIt('answers 404 envelopes inside and outside both prefixes', async () => {
    for (const path of [
      '/',
      '/elsewhere',
      '/device-service',
      '/device-service/nope',
      '/main-service/nope',
      '/device-servicex/v3/api-docs',
    ]) {
      const res = await http().get(path);
      expect({ path, http: res.status, body: res.body.status, at: res.body.path }).toEqual({ path, http: 404, body: 404, at: path });
    }
  });
});
