import type { Express, Response } from 'express';
import { sendJson } from '../fast-paths/json-reply';

/** Where the body status of the envelope a response sent is kept, on the response itself. */
const BODY_STATUS = Symbol('bodyStatus');

/** The body statuses of contract.md "The envelope": a metric label takes these values, or `other` / `none`. */
const CONTRACT_BODY_STATUSES = new Set([200, 400, 401, 403, 404, 409, 413, 415, 422, 429, 500, 503, 1002, 1003, 1004]);

type Tracked = Response & { [BODY_STATUS]?: number };

/**
 * Every envelope, success or failure, leaves through `res.json` (Nest's reply, the exception filter, the 404
 * outside the prefix): overriding it once on the app's response prototype notes each envelope's body status
 * for the request line and the metrics, at no cost to a request beyond one property write. With `fastPaths`, it
 * also sends an object itself where fast-paths/json-reply.ts answers as Express would.
 */
export function noteBodyStatuses(app: Express, fastPaths: boolean): void {
  const response = app.response as Tracked;
  const json = response.json;
  response.json = function (this: Tracked, body?: unknown) {
    const status = (body as { status?: unknown; timestamp?: unknown } | null)?.status;
    if (typeof status === 'number' && typeof (body as { timestamp?: unknown }).timestamp === 'number') this[BODY_STATUS] = status;
    // an object is sent by fast-paths/json-reply.ts where that answers exactly as Express would
    if (fastPaths && typeof body === 'object' && body !== null && sendJson(this, body)) return this;
    return json.call(this, body);
  };
}

/** The body status of the envelope this response sent; undefined when it sent none (metrics text, documents, files). */
export function bodyStatusOf(res: Response): number | undefined {
  return (res as Tracked)[BODY_STATUS];
}

/** The body status as a bounded metric label: a status of the contract, `other`, or `none` without an envelope. */
export function bodyStatusLabel(res: Response): string {
  const status = bodyStatusOf(res);
  if (status === undefined) return 'none';
  return CONTRACT_BODY_STATUSES.has(status) ? String(status) : 'other';
}

/** A server fault (5xx) or a refused request (4xx, and the contract's 1002-1004 client errors), by HTTP or body status. */
export function outcomeOf(res: Response): 'fault' | 'refused' | 'ok' {
  const body = bodyStatusOf(res) ?? res.statusCode;
  if (res.statusCode >= 500 || (body >= 500 && body < 600)) return 'fault';
  if (res.statusCode >= 400 || body >= 400) return 'refused';
  return 'ok';
}
