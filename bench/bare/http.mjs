// What every bare request does around its operation: read a bounded JSON body, answer with the
// services' envelope, and write the one JSON log line per request that the services' default log
// level writes (request, response headers, caller, route, duration), synchronously to stdout as pino's
// default destination does.
import { randomUUID } from 'node:crypto';
import { writeSync } from 'node:fs';

const BODY_LIMIT = 1 << 20;
const SECRET_QUERY = /([?&](?:token|secret)=)[^&#]*/gi;

/** A refusal with the envelope status it answers with. */
export class Refusal extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}
export const invalid = (message) => new Refusal(400, message);

export function readJson(req) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    let size = 0;
    req.on('data', (chunk) => {
      size += chunk.length;
      if (size > BODY_LIMIT) reject(new Refusal(413, 'request body too large'));
      else chunks.push(chunk);
    });
    req.on('error', reject);
    req.on('end', () => {
      if (size > BODY_LIMIT) return;
      try {
        const body = size ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : {};
        if (typeof body !== 'object' || body === null || Array.isArray(body)) reject(invalid('body must be a JSON object'));
        else resolve(body);
      } catch {
        reject(invalid('body is not valid JSON'));
      }
    });
  });
}

/** Starts a request's bookkeeping: its id (X-Request-Id), start time, and the caller once known. */
export function begin(req, res) {
  const id = randomUUID();
  res.setHeader('X-Request-Id', id);
  return { id, start: performance.now(), route: 'unmatched', caller: null };
}

/** Answers with the envelope and logs the request line. */
export function answer(service, req, res, context, data, extraData = {}) {
  send(service, req, res, context, 200, {
    timestamp: Date.now(),
    status: 200,
    error: null,
    localizedError: null,
    path: null,
    extraData,
    data: data ?? null,
  });
}

export function refuse(service, req, res, context, error) {
  const status = error instanceof Refusal ? error.status : 500;
  const message = error instanceof Refusal ? error.message : 'Internal server error';
  if (!(error instanceof Refusal)) console.error(error);
  send(service, req, res, context, status, {
    timestamp: Date.now(),
    status,
    error: message,
    localizedError: message,
    path: req.url.split('?')[0],
    extraData: {},
    data: null,
  });
}

function send(service, req, res, context, status, envelope) {
  const body = JSON.stringify(envelope);
  res.statusCode = status;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', Buffer.byteLength(body));
  res.end(body);
  logRequest(service, req, res, context, status);
}

function logRequest(service, req, res, { id, start, route, caller }, status) {
  const headers = { ...req.headers };
  if (headers.authorization) headers.authorization = '[Redacted]';
  const line = {
    level: status >= 500 ? 50 : 30,
    time: new Date().toISOString(),
    service,
    requestId: id,
    req: { id, method: req.method, url: req.url.replace(SECRET_QUERY, '$1[Redacted]'), headers, remoteAddress: req.socket.remoteAddress },
    ...(caller ? { tenantId: caller.tenantId, user: caller.user } : {}),
    res: { statusCode: status, headers: res.getHeaders() },
    durationMs: Math.round(performance.now() - start),
    route,
    status,
    msg: 'request completed',
  };
  writeSync(1, `${JSON.stringify(line)}\n`);
}
