// `node bench/overload/client-check.mjs`: checks the overload benchmark's client against a local server that answers
// in every way a service under overload might (chunked, until close, Connection: close, byte by byte, garbage, a
// close mid-answer, no answer at all), and the load worker against one that answers garbage or closes at random:
// the generator must count each case and never hang or crash.
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { Worker } from 'node:worker_threads';
import { PromisedConnection } from './http-client.mjs';

const envelope = (status) => `{"timestamp":1,"status":${status},"error":"${status === 200 ? '' : 'Storage unavailable'}","data":true}`;
const ANSWERS = {
  '/ok': (s) => s.write(`HTTP/1.1 200 OK\r\ncontent-length: ${envelope(200).length}\r\n\r\n${envelope(200)}`),
  '/refused': (s) =>
    s.write(`HTTP/1.1 503 Service Unavailable\r\nRetry-After: 1\r\ncontent-length: ${envelope(503).length}\r\n\r\n${envelope(503)}`),
  '/chunked': (s) =>
    s.write(
      `HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n5\r\n{"tim\r\n${(envelope(200).length - 5).toString(16)}\r\n${envelope(200).slice(5)}\r\n0\r\n\r\n`,
    ),
  '/close': (s) => s.end(`HTTP/1.1 200 OK\r\nconnection: close\r\ncontent-length: ${envelope(200).length}\r\n\r\n${envelope(200)}`),
  '/until-close': (s) => s.end(`HTTP/1.1 200 OK\r\n\r\n${envelope(200)}`),
  '/bytewise': (s) => {
    const bytes = `HTTP/1.1 200 OK\r\ncontent-length: ${envelope(200).length}\r\n\r\n${envelope(200)}`;
    const drip = (i) => i < bytes.length && s.write(bytes[i], () => setImmediate(drip, i + 1));
    drip(0);
  },
  '/continue': (s) => s.write(`HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 204 No Content\r\n\r\n`),
  '/garbage': (s) => s.write('HELLO THERE\r\n\r\n'),
  '/bad-length': (s) => s.write('HTTP/1.1 200 OK\r\ncontent-length: -4\r\n\r\n'),
  '/cut': (s) => s.end('HTTP/1.1 200 OK\r\ncontent-length: 100\r\n\r\n{"timest'),
  '/silent': () => {},
  '/random': (s) =>
    [ANSWERS['/ok'], ANSWERS['/garbage'], ANSWERS['/cut'], ANSWERS['/close'], (x) => x.destroy()][Math.floor(Math.random() * 5)](s),
};

const server = createServer((socket) => {
  let pending = '';
  socket.on('error', () => {});
  socket.on('data', (chunk) => {
    pending += chunk.toString('latin1');
    for (let end; (end = pending.indexOf('\r\n\r\n')) >= 0;) {
      const head = pending.slice(0, end);
      const length = Number(/content-length: (\d+)/i.exec(head)?.[1] ?? 0);
      if (pending.length < end + 4 + length) break;
      pending = pending.slice(end + 4 + length);
      // the load worker's page requests get the random answers
      (ANSWERS[head.split(' ')[1]] ?? ANSWERS['/random'])(socket);
    }
  });
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const { port } = server.address();
const get = (path) => Buffer.from(`GET ${path} HTTP/1.1\r\nhost: x\r\n\r\n`);

const connection = new PromisedConnection(port);
const ask = async (path, timeoutMs = 2_000) => {
  const { response, failure } = await connection.request(get(path), timeoutMs);
  return failure ?? `${response.status}/${response.envelope}${response.retryAfter ? ` retry ${response.retryAfter}` : ''}`;
};
// one connection through every case: each failure drops its socket and the next request opens another
assert.equal(await ask('/ok'), '200/200');
assert.equal(await ask('/refused'), '503/503 retry 1');
assert.equal(await ask('/chunked'), '200/200');
assert.equal(await ask('/close'), '200/200');
assert.equal(await ask('/ok'), '200/200');
assert.equal(await ask('/until-close'), '200/200');
assert.equal(await ask('/bytewise'), '200/200');
assert.equal(await ask('/continue'), '204/null');
assert.equal(await ask('/garbage'), 'bad-response');
assert.equal(await ask('/bad-length'), 'bad-response');
assert.equal(await ask('/cut'), 'closed-before-answer');
assert.equal(await ask('/silent', 300), 'timeout');
assert.equal(await ask('/ok'), '200/200');
connection.close();

// the load worker against random garbage and closes, with a short timeout: it reports, counting every kind
const result = await new Promise((resolve, reject) => {
  const now = Date.now();
  const spec = { kind: 'page', bearer: 'Bearer x' };
  const worker = new Worker(new URL('./load-worker.mjs', import.meta.url), {
    workerData: { port, connections: 50, startAt: now + 100, stopAt: now + 1_600, timeoutMs: 300, spec, tag: 'check' },
  });
  worker.once('message', resolve);
  worker.once('error', reject);
});
const { lost, answered } = result.stats;
assert.ok(answered > 0 && lost['bad-response'] > 0 && lost['closed-before-answer'] > 0, JSON.stringify(result.stats.lost));
server.close();
console.log('client checks passed; the load worker against random answers:', JSON.stringify({ answered, lost }));
