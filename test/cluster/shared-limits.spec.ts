/**
 * Limits counted in the database hold across the replicas: calls from one client address spread over
 * both replicas count against one limit.
 */
import { call, cluster, Cluster, describeCluster, freshAddress, unique } from './cluster-support';

/** The services' defaults (the harness sets neither). */
const DEVICE_TOKEN_RATE_LIMIT = 30;
const SAVE_MISSING_RATE_LIMIT = 120;

describeCluster('limits shared by the replicas', () => {
  let c: Cluster;
  beforeAll(() => (c = cluster()));

  it('device-token calls of one address through both device-service replicas count against one limit', async () => {
    const from = freshAddress();
    const path = '/device-service/main-api/device/data-acquisition-device/getGenerationTokenKeyByDataAcquisitionDeviceNo';
    const answers = [];
    for (let i = 0; i < DEVICE_TOKEN_RATE_LIMIT + 4; i++) {
      const base = c.device[i % 2];
      answers.push(await call(`${base}${path}?dataAcquisitionDeviceNo=${unique('no')}&secret=guess`, { forwardedFor: from }));
    }
    expect(answers.slice(0, DEVICE_TOKEN_RATE_LIMIT).map((a) => a.http)).toEqual(new Array(DEVICE_TOKEN_RATE_LIMIT).fill(401));
    expect(answers.slice(DEVICE_TOKEN_RATE_LIMIT).map((a) => a.http)).toEqual([429, 429, 429, 429]);
    expect(Number(answers[DEVICE_TOKEN_RATE_LIMIT].retryAfter)).toBeGreaterThanOrEqual(1);
  });

  it('saveMissing reports of one address through both main-service replicas count against one limit', async () => {
    const from = freshAddress();
    const path = '/main-service/system-api/configuration/translation/saveMissing?lng=en&ns=cluster';
    const answers = [];
    for (let i = 0; i < SAVE_MISSING_RATE_LIMIT + 2; i++)
      answers.push(await call(`${c.main[i % 2]}${path}`, { body: { [unique('k')]: 'v' }, forwardedFor: from }));
    expect(answers.slice(0, SAVE_MISSING_RATE_LIMIT).every((a) => a.http === 200)).toBe(true);
    expect(answers.slice(SAVE_MISSING_RATE_LIMIT).map((a) => a.http)).toEqual([429, 429]);
  });
});
