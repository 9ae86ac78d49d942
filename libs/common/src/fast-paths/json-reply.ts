import type { Response } from 'express';

/** The statuses whose answers Express sends without a body (it strips the headers it set). */
const BODILESS = new Set([204, 205, 304]);

/**
 * res.json of an object as Express sends it with the app's settings as the services keep them (no JSON replacer,
 * spaces or escaping, no ETag): the JSON text with `Content-Type: application/json; charset=utf-8` and its
 * Content-Length. Replaces: Express's json and send, their content-type parsing and formatting and its freshness
 * check. False, having done nothing, where Express would do more: another setting, a Content-Type or ETag already
 * set, HEAD, a conditional GET or QUERY (which Express may answer 304), or a status that has no body.
 */
export function sendJson(res: Response, body: object): boolean {
  const settings = res.app.settings as Record<string, unknown>;
  if (settings['json escape'] || settings['json replacer'] || settings['json spaces'] || typeof settings['etag fn'] === 'function')
    return false;
  const { method, headers } = res.req;
  if (
    method === 'HEAD' ||
    BODILESS.has(res.statusCode) ||
    res.getHeader('content-type') !== undefined ||
    res.getHeader('etag') !== undefined
  )
    return false;
  const conditional = headers['if-none-match'] !== undefined || headers['if-modified-since'] !== undefined;
  if (conditional && (method === 'GET' || method === 'QUERY')) return false;
  const text = JSON.stringify(body);
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', String(Buffer.byteLength(text, 'utf8')));
  res.end(text, 'utf8');
  return true;
}
