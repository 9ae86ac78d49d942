// The gateway's answers when it cannot hand a request on, and what it must leave alone (scripts/check-deploy.sh
// runs it). The gateway under test is docker/nginx's template rendered with main-service's upstream on a stand-in
// (started here, on STAND_IN_PORT) and UPSTREAM_MAX_CONNS=1, and device-service's upstream on a port where nothing
// listens. Prints one "ok - ..." / "not ok - ..." line per check.
//   node test/deploy/check-gateway-overload.mjs GATEWAY_URL STAND_IN_PORT
import { createServer, request } from 'node:http';
import { contract } from './sources.mjs';

const [gateway, standInPort] = process.argv.slice(2);
const main = contract.services['main-service'].prefix;
const device = contract.services['device-service'].prefix;
const ENVELOPE_KEYS = ['timestamp', 'status', 'error', 'localizedError', 'path', 'extraData', 'data'];

// --- the stand-in: a service answering its own refusals (a fixed timestamp, so two answers are byte-identical),
// holding a request until released, or closing the connection without an answer
let release;
let held;
const standIn = createServer((req, res) => {
  const path = new URL(req.url, 'http://stand-in').pathname;
  const own = path.match(/\/own\/(\d{3})$/);
  if (own) {
    const status = Number(own[1]);
    const error = status === 429 ? 'Too many requests, retry after 7 s' : `Service busy, retry after 7 s (${status})`;
    const body = JSON.stringify({ timestamp: 1700000000000, status, error, localizedError: error, path, extraData: {}, data: null });
    res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Retry-After': '7' });
    return res.end(body);
  }
  if (path === `${main}/hold`) {
    held?.();
    const done = () => res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"status":200}');
    const timer = setTimeout(done, 10_000);
    release = () => (clearTimeout(timer), done());
    return;
  }
  if (path === `${main}/drop`) return req.socket.destroy();
  res.writeHead(404).end();
});
await new Promise((resolve) => standIn.listen(Number(standInPort), '127.0.0.1', resolve));

/** One request on a connection of its own: status, lower-case headers, body text, milliseconds taken. */
function get(url, headers = {}) {
  const started = Date.now();
  return new Promise((resolve) => {
    const req = request(url, { headers, agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body, ms: Date.now() - started }));
    });
    req.setTimeout(15_000, () => req.destroy(new Error('no answer within 15 s')));
    req.on('error', (e) => resolve({ status: 0, headers: {}, body: e.message, ms: Date.now() - started }));
    req.end();
  });
}

let failed = 0;
function check(name, problems) {
  const list = problems.flat().filter(Boolean);
  if (list.length) failed++;
  console.log(list.length ? `not ok - ${name}\n    ${list.join('\n    ')}` : `ok - ${name}`);
}

/** Problems of a gateway 503: Retry-After 1, the envelope with status 503, this error and the request's path. */
function gatewayRefusal(answer, error, path, label) {
  let envelope;
  try {
    envelope = JSON.parse(answer.body);
  } catch {
    return [`${label}: HTTP ${answer.status}, not JSON: ${answer.body.slice(0, 200)}`];
  }
  const problems = [
    answer.status === 503 ? null : `HTTP ${answer.status}, want 503`,
    answer.headers['retry-after'] === '1' ? null : `Retry-After ${answer.headers['retry-after']}, want 1`,
    /^application\/json\b/.test(answer.headers['content-type'] ?? '') ? null : `Content-Type ${answer.headers['content-type']}`,
    answer.headers['x-request-id'] ? null : 'no X-Request-Id',
    JSON.stringify(Object.keys(envelope)) === JSON.stringify(ENVELOPE_KEYS) ? null : `envelope keys ${Object.keys(envelope)}`,
    envelope.status === 503 ? null : `body status ${envelope.status}`,
    envelope.error === error && envelope.localizedError === error
      ? null
      : `error ${JSON.stringify(envelope.error)}, want ${JSON.stringify(error)}`,
    envelope.path === path ? null : `path ${JSON.stringify(envelope.path)}, want ${JSON.stringify(path)}`,
    Number.isInteger(envelope.timestamp) && Math.abs(envelope.timestamp - Date.now()) < 60_000 ? null : `timestamp ${envelope.timestamp}`,
    JSON.stringify(envelope.extraData) === '{}' && envelope.data === null ? null : 'extraData must be {} and data null',
  ];
  return problems.filter(Boolean).map((p) => `${label}: ${p}`);
}

for (let i = 0; i < 50 && (await get(`${gateway}/gateway/health`)).status !== 200; i++) await new Promise((r) => setTimeout(r, 200));

// (a) a service's own answers: the gateway's error_page is for nginx's errors only (proxy_intercept_errors off)
const own = [];
for (const status of [503, 429, 502, 504]) {
  const path = `${main}/system-api/own/${status}`;
  const [direct, through] = [await get(`http://127.0.0.1:${standInPort}${path}`), await get(`${gateway}${path}`)];
  for (const header of ['retry-after', 'content-type'])
    if (through.headers[header] !== direct.headers[header])
      own.push(`${status}: ${header} ${through.headers[header]} through the gateway, ${direct.headers[header]} from the service`);
  if (through.status !== status) own.push(`${status}: HTTP ${through.status} through the gateway`);
  if (through.body !== direct.body) own.push(`${status}: body changed: ${through.body.slice(0, 200)}`);
}
check("a service's own 503 (Retry-After 7), 429, 502 and 504 pass the gateway unchanged: status, Retry-After, body", own);

// (b) the only upstream server at max_conns (1): nginx finds no free server and answers at once
const heldArrived = new Promise((resolve) => (held = resolve));
const first = get(`${gateway}${main}/hold`);
const arrived = await Promise.race([heldArrived.then(() => true), new Promise((r) => setTimeout(() => r(false), 5000))]);
const busy = await get(`${gateway}${main}/system-api/configuration/data-dictionary/page?current=1`);
release?.();
const firstAnswer = await first;
check('at max_conns the gateway answers 503 at once, Retry-After: 1 and the envelope "Service busy, retry after 1 s"', [
  arrived ? null : 'the first request did not reach the stand-in',
  gatewayRefusal(busy, 'Service busy, retry after 1 s', `${main}/system-api/configuration/data-dictionary/page`, 'second request'),
  busy.ms < 1000 ? null : `the refusal took ${busy.ms} ms`,
  firstAnswer.status === 200 ? null : `the request holding the connection got HTTP ${firstAnswer.status}`,
]);

// (c) the upstream down (connection refused) or closing without an answer: nginx's 502, answered as a 503
check('with the upstream down or cut off the gateway answers 503, Retry-After: 1 and the envelope "Service unavailable, retry after 1 s"', [
  gatewayRefusal(await get(`${gateway}${device}/v3/api-docs`), 'Service unavailable, retry after 1 s', `${device}/v3/api-docs`, 'refused'),
  gatewayRefusal(await get(`${gateway}${main}/drop`), 'Service unavailable, retry after 1 s', `${main}/drop`, 'closed'),
]);

standIn.close();
console.log(`# gateway overload: ${failed} check(s) failed`);
process.exit(failed ? 1 : 0);
