import type { ServerResponse } from 'node:http';
import type { Response } from 'express';
import type { Envelope } from './envelope';

/** Where the body status of the envelope a response sent is kept, on the response itself. */
const BODY_STATUS = Symbol('bodyStatus');

/** The body statuses of contract.md "The envelope": a metric label takes these values, or `other` / `none`. */
const CONTRACT_BODY_STATUSES = new Set([200, 400, 401, 403, 404, 409, 413, 415, 422, 429, 500, 503, 1002, 1003, 1004]);

type Tracked = ServerResponse & { [BODY_STATUS]?: number };

/**
 * Notes the body status of the envelope `res` is about to send, for the request line and the metrics. Every place
 * that sends an envelope calls it: sendEnvelope (the exception filter, the 404 outside the prefix), the adapter's
 * reply (every handler's result, http/server.ts) and the admission refusal.
 */
export function noteEnvelope(res: ServerResponse, envelope: Envelope): void {
  (res as Tracked)[BODY_STATUS] = envelope.status;
}

/** Sends `envelope` with Express's res.json, with HTTP status `httpStatus`, its body status noted (noteEnvelope). */
export function sendEnvelope(res: Response, httpStatus: number, envelope: Envelope): void {
  noteEnvelope(res, envelope);
  res.status(httpStatus).json(envelope);
}

/** The body status of the envelope this response sent; undefined when it sent none (metrics text, documents, files). */
export function bodyStatusOf(res: ServerResponse): number | undefined {
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
