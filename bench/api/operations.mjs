// The measured operations of `npm run bench:api`: what each request sends (a new body or target per
// request) and what its answer must hold. The same requests go to the services and to the bare handler,
// which serves the same paths.
import { DEVICE_TYPES, STATES, STEP, T0 } from './seed.mjs';

export const SNAPSHOTS = '/main-service/main-api/snapshot/device-state-snap';
export const PUSH_INFO = '/device-service/main-api/device/data-acquisition-device/pushInfoByDataAcquisitionDeviceNo';
const WEEK = 7 * 24 * 3_600_000;

const pick = (array) => array[Math.floor(Math.random() * array.length)];
const envelopeOk = (body) => body.startsWith('{"timestamp":') && body.includes('"status":200,');

const JSON_BODY = { 'content-type': 'application/json' };

/**
 * `service` names the process that serves an operation (main or device); `compared` whether the bare
 * handler does it too. Seeded: the snapshot ids and count, the devices with their tokens, the servers;
 * `bearer`: the Authorization header of the main-service calls (a device sends its token in the query).
 */
export function operations({ snapshotIds, snapshotRows, devices, serverNos, bearer }) {
  const withBearer = { ...JSON_BODY, authorization: bearer };
  const maxSnap = T0 + (snapshotRows - 1) * STEP;
  let saved = 0;
  return [
    {
      name: 'page',
      what: 'POST page {state, snapTimeStart/End: a random week, pageSize 20}, sorted snapTime desc, with total',
      service: 'main',
      headers: withBearer,
      compared: true,
      method: 'POST',
      path: () => `${SNAPSHOTS}/page`,
      body: () => {
        const start = T0 + Math.floor(Math.random() * Math.max(1, maxSnap - T0 - WEEK));
        return { current: 1, pageSize: 20, state: pick(STATES), snapTimeStart: start, snapTimeEnd: start + WEEK - 1 };
      },
      ok: (b) => envelopeOk(b) && b.includes('"data":[{') && /"total":[1-9]/.test(b),
    },
    {
      name: 'getById',
      what: 'GET getById?id=<random seeded id>',
      service: 'main',
      headers: withBearer,
      compared: true,
      method: 'GET',
      path: () => `${SNAPSHOTS}/getById?id=${pick(snapshotIds)}`,
      ok: (b) => envelopeOk(b) && b.includes('"deviceStateSnapId":'),
    },
    {
      name: 'save',
      what: 'POST save, a new body per request',
      service: 'main',
      headers: withBearer,
      compared: true,
      method: 'POST',
      path: () => `${SNAPSHOTS}/save`,
      body: () => {
        const n = ++saved;
        return {
          deviceNo: `NEW-${n}`,
          deviceType: pick(DEVICE_TYPES),
          state: pick(STATES),
          batteryLevel: n % 101,
          signalStrength: (n * 3) % 101,
          detail: `bench save ${n}`,
          snapTime: maxSnap + n,
        };
      },
      ok: (b) => envelopeOk(b) && b.includes('"data":true'),
    },
    {
      name: 'pushInfo',
      what: `POST pushInfoByDataAcquisitionDeviceNo: a random one of ${devices.length} devices reports one of ${serverNos.length} servers`,
      service: 'device',
      headers: JSON_BODY,
      compared: true,
      method: 'POST',
      path: () => {
        const device = pick(devices);
        return `${PUSH_INFO}?dataAcquisitionDeviceNo=${device.no}&token=${device.token}`;
      },
      body: () => ({
        firmwareVersion: '2.4.1',
        model: 'DA-200',
        ipAddress: '192.168.1.23',
        macAddress: '00:1A:2B:3C:4D:5E',
        batteryLevel: Math.floor(Math.random() * 101),
        dataAcquisitionServerNo: pick(serverNos),
      }),
      ok: (b) => envelopeOk(b) && b.includes('"data":true'),
    },
    {
      name: 'page-all',
      what: `POST page {current 1..50, pageSize 20}: no filter, all ${snapshotRows} rows of the tenant, sorted snapTime desc, with total`,
      service: 'main',
      headers: withBearer,
      compared: false,
      method: 'POST',
      path: () => `${SNAPSHOTS}/page`,
      body: () => ({ current: 1 + Math.floor(Math.random() * 50), pageSize: 20 }),
      ok: (b) => envelopeOk(b) && b.includes('"data":[{') && /"total":[1-9]/.test(b),
    },
  ];
}
