// The requests of the overload benchmark as bytes. A worker thread gets a serializable spec and builds its own
// source from it: `page` (one fixed request, built once), `save` and `pushInfo` (bench:api's operations, a new body
// or device per request) and `forged` (page with a Bearer token that is a well-formed JWT with a wrong signature,
// a fresh random one per request, so no cache of verified tokens can help the service).
import { randomBytes } from 'node:crypto';
import { operations, SNAPSHOTS } from '../api/operations.mjs';

export const PAGE_BODY = { current: 1, pageSize: 10 };
const JSON_BODY = { 'content-type': 'application/json' };

/** The spec of each request kind, from what the setup seeded and signed. */
export const specs = {
  page: (bearer) => ({ kind: 'page', bearer }),
  save: (bearer, snapshotRows) => ({ kind: 'save', bearer, snapshotRows }),
  pushInfo: (devices, serverNos) => ({ kind: 'pushInfo', devices: devices.map(({ no, token }) => ({ no, token })), serverNos }),
  forged: () => ({ kind: 'forged' }),
};

function requestBytes(port, method, path, headers, body) {
  let head = `${method} ${path} HTTP/1.1\r\nhost: 127.0.0.1:${port}\r\n`;
  for (const [name, value] of Object.entries(headers)) head += `${name}: ${value}\r\n`;
  return Buffer.from(`${head}content-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
}

const base64url = (value) => Buffer.from(JSON.stringify(value)).toString('base64url');
const FORGED_HEADER = base64url({ alg: 'HS256', typ: 'JWT' });

/** A JWT of the services' claim shape, unexpired, signed with nothing the service knows. */
function forgedToken() {
  const random = randomBytes(40).toString('base64url');
  const exp = Math.floor(Date.now() / 1000) + 3600;
  const claims = { sub: `u${random.slice(0, 8)}`, tenantId: `t${random.slice(8, 16)}`, roles: ['administrator'], exp };
  return `${FORGED_HEADER}.${base64url(claims)}.${random.slice(0, 43)}`;
}

/**
 * A function returning the next request's bytes for `spec` against `port`. `tag` makes this source's save bodies
 * unique among all sources (each worker and the recovery watch have their own).
 */
export function requestSource(spec, port, tag) {
  const pagePath = `${SNAPSHOTS}/page`;
  const pageBody = JSON.stringify(PAGE_BODY);
  if (spec.kind === 'page') {
    const bytes = requestBytes(port, 'POST', pagePath, { ...JSON_BODY, authorization: spec.bearer }, pageBody);
    return () => bytes;
  }
  if (spec.kind === 'forged')
    return () => requestBytes(port, 'POST', pagePath, { ...JSON_BODY, authorization: `Bearer ${forgedToken()}` }, pageBody);
  const [op] = operations({
    snapshotIds: [],
    snapshotRows: spec.snapshotRows ?? 1,
    devices: spec.devices ?? [],
    serverNos: spec.serverNos ?? [],
    bearer: spec.bearer,
  }).filter((o) => o.name === spec.kind);
  if (!op) throw new Error(`no request kind ${spec.kind}`);
  // bench:api's save numbers its bodies per source: the tag keeps two sources' apart
  const tagged = () => {
    const saved = op.body();
    return { ...saved, deviceNo: `${tag}-${saved.deviceNo}` };
  };
  const body = spec.kind === 'save' ? tagged : op.body;
  return () => requestBytes(port, op.method, op.path(), op.headers, JSON.stringify(body()));
}
