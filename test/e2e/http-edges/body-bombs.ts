/**
 * Bodies cannot stall the process. A gzip body of about 16 KB on the wire that inflates to 16 MB of
 * `[[],[],...]` is answered without being read on an unknown route or without a valid credential (both
 * services), and refused at the value bound on an import route with a valid token; the largest bodies the
 * bounds admit (in values, in bytes) are read and answered. A request refused before its body is read is
 * answered while the client is still sending that body. Objects of tens of thousands of keys, and records
 * of more values than any body declares, are refused before they are parsed, on both services. That the
 * event loop stays free meanwhile is measured in test/timing/body-bombs.spec.ts.
 */
import { MAX_BODY_VALUES, MAX_RECORD_PROPERTIES, MAX_RECORD_VALUES } from '@app/common';
import { gzipSync } from 'node:zlib';
import {
  answerBeforeBody,
  BOMB,
  deviceBodyCalls,
  emptyArrays,
  MB,
  objectWithKeys,
  send,
  SERVICES,
  UNCOMPRESSED,
} from '../../support/body-bombs';
import { DEVICE_API, DeviceTestApp, startDeviceApp } from '../../support/device-app';
import { ALL_RESOURCES } from '../../support/tables';
import { CONFIG, Envelope, listenOnLoopback, startApp, TestApp } from '../../support/test-app';
import type { Claims } from '../../support/tokens';

/** Fails before the shape bounds: class-transformer held the process 7.7 s for 64,000 keys, minutes for 480,000. */
const ANSWERED_WITHIN_MS = 2_000;

describe.each(SERVICES)('$name: bodies refused before they are read', ({ start, refusals }) => {
  let t: TestApp;
  let base: string;
  beforeAll(async () => {
    t = await start();
    base = await listenOnLoopback(t);
  });
  afterAll(() => t?.close());

  it('the 16 KB gzip bomb, sent 24 times on unknown routes and without valid credentials: each answered', async () => {
    expect(BOMB.length).toBeLessThan(64 * 1024);
    const answers: Envelope[] = [];
    for (let round = 0; round < 24 / refusals.length; round++)
      answers.push(...(await Promise.all(refusals.map((r) => send(base, r.path, BOMB, r.headers)))));
    expect(answers.map((a) => [a.httpStatus, a.status])).toEqual(answers.map((_, i) => Array(2).fill(refusals[i % refusals.length].http)));
  });

  it.each(refusals)('$name is answered while the body is still being sent', async ({ path, headers, http }) => {
    expect(await answerBeforeBody(base, path, headers)).toMatchObject({
      httpStatus: http,
      status: http,
      data: null,
      path: path.split('?')[0],
    });
  });
});

describe('compressed bodies on an import route with a valid token', () => {
  let t: TestApp;
  let base: string;
  beforeAll(async () => {
    t = await startApp();
    base = await listenOnLoopback(t);
  });
  afterAll(() => t?.close());

  const IMPORT = `${CONFIG}/data-dictionary/importList`;
  const importing = (body: Buffer) => send(base, IMPORT, gzipSync(body), { Authorization: t.auth() });

  it(`the 16 MB bomb: refused at ${MAX_BODY_VALUES} values before it is parsed (400)`, async () => {
    const result = await send(base, IMPORT, BOMB, { Authorization: t.auth() });
    expect(result).toMatchObject({ httpStatus: 200, status: 400, path: IMPORT, data: null });
    expect(result.error).toBe(`Request body holds more than ${MAX_BODY_VALUES} JSON values`);
  });

  it('the most empty arrays the value bound admits: parsed, walked and refused as rows (1003)', async () => {
    const result = await importing(emptyArrays(Math.floor((MAX_BODY_VALUES - 1) / 2)));
    expect(result).toMatchObject({ httpStatus: 200, status: 1003, path: IMPORT, data: null });
  });

  it('a body of just under 16 MB: read and validated (400)', async () => {
    const row = { dataDictionaryTypeCode: 'bomb', dataDictionaryCode: 'c', name: 'n', remark: 'x'.repeat(16 * MB - 200) };
    const result = await importing(Buffer.from(JSON.stringify([row])));
    expect(result).toMatchObject({ httpStatus: 200, status: 400, path: IMPORT, data: null });
    expect(result.error).toContain('remark');
  });

  it('the same bomb on a route of the default limit: 413 once 1 MB is inflated', async () => {
    const res = await send(base, `${CONFIG}/data-dictionary/save`, BOMB, { Authorization: t.auth() });
    expect(res).toMatchObject({ httpStatus: 413, status: 413, error: 'Request body too large', data: null });
  });
});

describe(`objects of many keys and records of many values: refused before they are parsed (${MAX_RECORD_PROPERTIES} properties, ${MAX_RECORD_VALUES} values a record)`, () => {
  let t: TestApp;
  let base: string;
  beforeAll(async () => {
    t = await startApp();
    base = await listenOnLoopback(t);
  });
  afterAll(() => t?.close());

  /** Sends JSON text as it is (with `claims`' token); resolves to the envelope and how long the answer took. */
  const timed = async (path: string, text: string, claims?: Claims) => {
    const started = performance.now();
    const result = await send(base, path, Buffer.from(text), { ...UNCOMPRESSED, Authorization: t.auth(claims) });
    return { result, ms: performance.now() - started };
  };
  const properties = `more than ${MAX_RECORD_PROPERTIES} properties`;

  it('value-set/page with one object of 64,000 keys (578 KB) and a read permission only: 400 naming the bound, at once', async () => {
    const page = `${CONFIG}/value-set/page`;
    const { result, ms } = await timed(page, objectWithKeys(64_000), { roles: [], permissions: ['value-set:read'] });
    expect(result).toMatchObject({ httpStatus: 200, status: 400, path: page, data: null, error: `Request body holds ${properties}` });
    expect(ms).toBeLessThan(ANSWERED_WITHIN_MS);
  });

  it('importList with one row of 480,000 keys (compact, under 16 MB): 400 naming the row, at once', async () => {
    const IMPORT = `${CONFIG}/data-dictionary/importList`;
    const text = `[${objectWithKeys(480_000)}]`;
    expect(text.length).toBeLessThan(16 * MB);
    const { result, ms } = await timed(IMPORT, text);
    expect(result).toMatchObject({ httpStatus: 200, status: 400, path: IMPORT, data: null, error: `[0]: a row holds ${properties}` });
    expect(ms).toBeLessThan(ANSWERED_WITHIN_MS);
  });

  it(`${MAX_RECORD_PROPERTIES} keys in one object are read (unknown properties stripped), one more is refused; in a batch the bound is per row`, async () => {
    const page = `${CONFIG}/value-set/page`;
    expect((await timed(page, objectWithKeys(MAX_RECORD_PROPERTIES))).result).toMatchObject({ httpStatus: 200, status: 200 });
    expect((await timed(page, objectWithKeys(MAX_RECORD_PROPERTIES + 1))).result).toMatchObject({ status: 400 });
    // two rows of 1,000 keys each: within the bound row by row, then refused as rows (no required field)
    const IMPORT = `${CONFIG}/data-dictionary/importList`;
    const rows = await timed(IMPORT, `[${objectWithKeys(MAX_RECORD_PROPERTIES)},${objectWithKeys(MAX_RECORD_PROPERTIES)}]`);
    expect(rows.result).toMatchObject({ status: 400 });
    expect(rows.result.error).toContain('[1].dataDictionaryTypeCode is required');
  });

  it(`e-mail save with ${MAX_RECORD_VALUES} addresses: 400 naming the value bound; nothing is written`, async () => {
    const EMAIL = '/main-service/system-api/message/email';
    const count = async () => (await t.post(`${EMAIL}/count`, {})).data as number;
    const before = await count();
    const email = ALL_RESOURCES.find((r) => r.segment === 'email')!.sample('bombs');
    const addresses = Array.from({ length: MAX_RECORD_VALUES }, (_, i) => `a${i}@example.com`);
    const { result } = await timed(`${EMAIL}/save`, JSON.stringify({ ...email, toAddresses: addresses }));
    expect(result).toMatchObject({ status: 400, error: `Request body holds more than ${MAX_RECORD_VALUES} JSON values` });
    expect(await count()).toBe(before);
  });
});

describe('device-service: device calls with one object of 64,000 keys', () => {
  let t: DeviceTestApp;
  let base: string;
  beforeAll(async () => {
    t = await startDeviceApp();
    base = await listenOnLoopback(t);
  });
  afterAll(() => t?.close());

  it('pushInfo and updateInternalIp: 400 naming the bound, at once; the stored report is unchanged', async () => {
    const calls = await deviceBodyCalls(t, 'keys');
    const [push] = calls;
    const deviceQuery = Object.fromEntries(new URLSearchParams(push.query));
    expect(await t.call('post', push.path, deviceQuery, { firmwareVersion: '1.0.0' })).toMatchObject({ status: 200 });
    const bomb = Buffer.from(objectWithKeys(64_000));
    for (const { path, query, method } of calls) {
      const started = performance.now();
      const result = await send(base, `${path}?${query}`, bomb, UNCOMPRESSED, method);
      expect(result).toMatchObject({
        httpStatus: 200,
        status: 400,
        path,
        error: `Request body holds more than ${MAX_RECORD_PROPERTIES} properties`,
      });
      expect(performance.now() - started).toBeLessThan(ANSWERED_WITHIN_MS);
    }
    expect((await t.call('get', `${DEVICE_API}/getByDataAcquisitionDeviceNo`, deviceQuery)).data).toMatchObject({
      firmwareVersion: '1.0.0',
    });
  });
});
