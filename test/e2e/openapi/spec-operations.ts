/**
 * The spec's 271 operations (spec "Endpoints", transcribed here, not derived from the code): each one
 * appears in exactly one of the two OpenAPI documents, exactly once, with a documented 200 response.
 */
import { DeviceTestApp, startDeviceApp } from '../../support/device-app';
import { startApp, TestApp } from '../../support/test-app';
import type { Json } from '../../support/json';

const STANDARD = [
  ['POST', 'count'],
  ['GET', 'getById'],
  ['POST', 'list'],
  ['POST', 'page'],
  ['DELETE', 'removeById'],
  ['DELETE', 'removeByIds'],
  ['POST', 'save'],
  ['PUT', 'updateById'],
] as const;

const MESSAGE = '/main-service/system-api/message';
const MESSAGE_RESOURCES = [
  'email',
  'email-config',
  'email-template',
  'email-template-email-config',
  'notification',
  'notification-config',
  'notification-template',
  'notification-template-notification-config',
  'notification-user',
  'sms',
  'sms-config',
  'sms-package',
  'sms-template',
  'sms-template-sms-config',
];
const CONFIG = '/main-service/system-api/configuration';
const CONFIG_RESOURCES = [
  'data-dictionary',
  'data-dictionary-map',
  'data-dictionary-table',
  'data-dictionary-type',
  'translation',
  'value-set',
  'value-set-map',
  'value-set-table',
  'value-set-type',
];
const SNAPSHOT = '/main-service/main-api/snapshot';
const SNAPSHOT_RESOURCES = [
  'data-acquisition-box-usage-snap',
  'data-acquisition-device-claim-snap',
  'data-acquisition-device-give-back-snap',
  'data-sync-snap',
  'device-position-snap',
  'device-state-snap',
  'fingerprint-scanner-usage-snap',
  'nfc-card-usage-snap',
];
const DEVICE = '/device-service/main-api/device';

const standard = (prefix: string, resources: string[]) => resources.flatMap((r) => STANDARD.map(([m, op]) => `${m} ${prefix}/${r}/${op}`));

const MESSAGE_OPS = standard(MESSAGE, MESSAGE_RESOURCES);
const MAIN_OPS = [
  ...MESSAGE_OPS,
  ...standard(CONFIG, CONFIG_RESOURCES),
  `POST ${CONFIG}/data-dictionary/listCache`,
  `POST ${CONFIG}/data-dictionary-type/listCache`,
  ...CONFIG_RESOURCES.map((r) => `POST ${CONFIG}/${r}/importList`),
  `POST ${CONFIG}/data-dictionary-table/saveOrUpdate`,
  `POST ${CONFIG}/value-set-table/saveBatch`,
  `POST ${CONFIG}/translation/saveMissing`,
  'GET /main-service/main-api/v1/general/configuration/base/getClientIp',
  'GET /main-service/main-api/v1/general/configuration/base/getCloudServiceInfo',
  ...standard(SNAPSHOT, SNAPSHOT_RESOURCES),
];
const DEVICE_OPS = [
  `GET ${DEVICE}/data-acquisition-device/getByDataAcquisitionDeviceNo`,
  `GET ${DEVICE}/data-acquisition-device/getGenerationTokenKeyByDataAcquisitionDeviceNo`,
  `POST ${DEVICE}/data-acquisition-device/listByDataAcquisitionServerNo`,
  `POST ${DEVICE}/data-acquisition-device/pushInfoByDataAcquisitionDeviceNo`,
  `GET ${DEVICE}/data-acquisition-server/getGenerationTokenKeyByDataAcquisitionServerNo`,
  `POST ${DEVICE}/data-acquisition-server/listByDataAcquisitionServerNo`,
  `PUT ${DEVICE}/data-acquisition-server/updateInternalIpByDataAcquisitionServerNo`,
];
const operations = (doc: Json): Map<string, Json> =>
  new Map(
    Object.entries((doc.paths ?? {}) as Json).flatMap(([path, item]) =>
      ['get', 'post', 'put', 'delete', 'patch']
        .filter((m) => item[m])
        .map((m) => [`${m.toUpperCase()} ${path}`, item[m] as Json] as [string, Json]),
    ),
  );

describe('the spec operations in the OpenAPI documents', () => {
  let main: TestApp;
  let device: DeviceTestApp;
  let mainOps: Map<string, Json>;
  let deviceOps: Map<string, Json>;

  beforeAll(async () => {
    [main, device] = await Promise.all([startApp(), startDeviceApp()]);
    mainOps = operations((await main.http().get('/main-service/v3/api-docs')).body);
    deviceOps = operations((await device.http().get('/device-service/v3/api-docs')).body);
  });
  afterAll(async () => {
    await Promise.all([main?.close(), device?.close()]);
  });

  it('transcribes 271 distinct operations: 112 message, 88 configuration, 64 snapshot, 7 device', () => {
    expect(new Set([...MAIN_OPS, ...DEVICE_OPS]).size).toBe(271);
    expect([MESSAGE_OPS.length, MAIN_OPS.length - MESSAGE_OPS.length - 64, DEVICE_OPS.length]).toEqual([112, 88, 7]);
  });

  it('lists every main-service operation in main-service, the 112 of the message group included', () => {
    expect(MAIN_OPS.filter((op) => !mainOps.has(op))).toEqual([]);
    expect(MESSAGE_OPS.filter((op) => mainOps.has(op))).toHaveLength(112);
  });

  it('lists each of the 271 operations exactly once across both documents (a path and method occur once per document)', () => {
    const occurrences = [...MAIN_OPS, ...DEVICE_OPS].map((op) => [op, Number(mainOps.has(op)) + Number(deviceOps.has(op))]);
    expect(occurrences.filter(([, count]) => count !== 1)).toEqual([]);
  });

  it('lists the 7 device operations in device-service only', () => {
    expect(DEVICE_OPS.filter((op) => !deviceOps.has(op))).toEqual([]);
    expect(DEVICE_OPS.filter((op) => mainOps.has(op))).toEqual([]);
    expect(MAIN_OPS.filter((op) => deviceOps.has(op))).toEqual([]);
  });

  it('documents a 200 response with a JSON schema for each of them', () => {
    const built = [...MAIN_OPS.map((op) => mainOps.get(op)), ...DEVICE_OPS.map((op) => deviceOps.get(op))];
    const untyped = built.filter((op) => !op?.responses?.['200']?.content?.['application/json']?.schema);
    expect(untyped).toEqual([]);
  });
});
