/**
 * Small compressed bodies cannot stall the process. A gzip body of about 16 KB on the wire that inflates to
 * 16 MB of `[[],[],...]` is answered without being read on an unknown route or without a valid credential
 * (both services), and refused at the value bound on an import route with a valid token; the largest bodies
 * the bounds admit (in values, in bytes) are read and answered. A request refused before its body is read is
 * answered while the client is still sending that body. That the event loop stays free meanwhile is measured
 * in test/timing/body-bombs.spec.ts.
 */
import { MAX_BODY_VALUES } from '@app/common';
import { gzipSync } from 'node:zlib';
import { answerBeforeBody, BOMB, emptyArrays, MB, send, SERVICES } from '../../support/body-bombs';
import { CONFIG, Envelope, listenOnLoopback, startApp, TestApp } from '../../support/test-app';

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
