/**
 * Bodies that cannot be read are the client's failure, never a server fault: a compressed body that is not
 * what its Content-Encoding says (gzip garbage, gzip cut short, bad deflate, bad br) is answered HTTP 400
 * with body status 400, logged as refused (warn), counted under status 400; an upload the client breaks off
 * logs no fault and is counted under status 499 (client closed request); a form body of too many parameters
 * is 413. Before, each was an HTTP 500 with an error-level line.
 */
import { request } from 'node:http';
import { connect } from 'node:net';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { LogCapture, metricValue } from '../../support/observability';
import { CONFIG, Envelope, listenOnLoopback, startApp, TestApp } from '../../support/test-app';

const LIST = `${CONFIG}/data-dictionary/list`;
const SAVE_MISSING = `${CONFIG}/translation/saveMissing`;
const UNDECODABLE = 'Request body could not be decompressed (corrupt or truncated Content-Encoding)';

describe('bodies that cannot be read: 4xx, logged as refused, counted as 4xx', () => {
  const logs = new LogCapture();
  let t: TestApp;
  let base: string;
  beforeAll(async () => {
    t = await startApp({ LOG_LEVEL: 'log' }, { logTo: logs });
    base = await listenOnLoopback(t);
  });
  afterAll(() => t?.close());

  /** POSTs `body` as it is, with its headers and a request id; resolves to the envelope and the HTTP status. */
  const post = (path: string, body: Buffer, headers: Record<string, string>, id: string): Promise<Envelope> =>
    new Promise((resolve, reject) => {
      const req = request(
        `${base}${path}`,
        {
          method: 'POST',
          agent: false,
          headers: { 'Content-Length': body.length, 'X-Request-Id': id, Authorization: t.auth(), ...headers },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () => resolve({ ...JSON.parse(Buffer.concat(chunks).toString('utf8')), httpStatus: res.statusCode }));
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  const metrics = async () => (await t.http().get('/main-service/metrics')).text;
  const faultsOf = (id: string) => logs.lines.filter((l) => l.requestId === id && l.level >= 50);

  const gzipped = gzipSync('{"dataDictionaryTypeCode":"x"}');
  it.each([
    { name: 'bytes that are not gzip', encoding: 'gzip', body: Buffer.from('not gzip at all') },
    { name: 'a gzip body cut short', encoding: 'gzip', body: gzipped.subarray(0, gzipped.length - 6) },
    { name: 'bytes that are not deflate', encoding: 'deflate', body: Buffer.from('xxxx') },
    { name: 'bytes that are not br', encoding: 'br', body: brotliCompressSync('{"a":1}').subarray(0, 3) },
  ])('$name under Content-Encoding $encoding: HTTP 400, status 400, a warn line, counted under 400', async ({ encoding, body }) => {
    const id = `undecodable-${encoding}-${body.length}`;
    const labels = { route: LIST, status: '400', body_status: '400' };
    const before = metricValue(await metrics(), 'http_requests_total', labels);
    const res = await post(LIST, body, { 'Content-Type': 'application/json', 'Content-Encoding': encoding }, id);
    expect(res).toMatchObject({ httpStatus: 400, status: 400, error: UNDECODABLE, path: LIST, data: null });
    expect(logs.requestLine(id)).toMatchObject({ level: 40, msg: 'request refused', status: 400, bodyStatus: 400 });
    expect(faultsOf(id)).toEqual([]);
    expect(metricValue(await metrics(), 'http_requests_total', labels) - before).toBe(1);
  });

  it('an upload the client breaks off: logged at warn as abandoned, no fault, counted under status 499', async () => {
    const labels = { route: LIST, status: '499' };
    const before = metricValue(await metrics(), 'http_requests_total', labels);
    const { port } = new URL(base);
    const socket = connect(Number(port), '127.0.0.1', () =>
      socket.write(
        `POST ${LIST} HTTP/1.1\r\nHost: x\r\nAuthorization: ${t.auth()}\r\nX-Request-Id: upload-aborted-1\r\n` +
          'Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"dataDictionaryTypeCode":',
        () => setTimeout(() => socket.destroy(), 50),
      ),
    );
    for (let i = 0; i < 100 && !logs.requestLine('upload-aborted-1'); i++) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(logs.requestLine('upload-aborted-1')).toMatchObject({
      level: 40,
      status: 499,
      error: 'the client left before the response was sent',
    });
    // the read's failure reaches the exception filter after the connection closed: give it its turn
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(logs.lines.filter((l) => l.requestId === 'upload-aborted-1' && l.context === 'Exceptions')).toEqual([]);
    expect(metricValue(await metrics(), 'http_requests_total', labels) - before).toBe(1);
  });

  it('a form body of more than 1,000 parameters (saveMissing): HTTP 413, status 413, a warn line', async () => {
    const form = Buffer.from(Array.from({ length: 1001 }, (_, i) => `k${i}=v`).join('&'));
    const res = await post(
      `${SAVE_MISSING}?lng=en&ns=common`,
      form,
      { 'Content-Type': 'application/x-www-form-urlencoded' },
      'form-params-1',
    );
    expect(res).toMatchObject({ httpStatus: 413, status: 413, error: 'Request body too large', data: null });
    expect(logs.requestLine('form-params-1')).toMatchObject({ level: 40, status: 413 });
    expect(faultsOf('form-params-1')).toEqual([]);
  });
});
