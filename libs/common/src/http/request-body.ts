import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Request, Response } from 'express';
import { json, urlencoded } from 'express';
import { AppException } from './app-exception';
import { sanitizeBody, sanitizeSmallBody, SMALL_BODY_BYTES } from './body-sanitizer';
import { countJsonValues } from './json-values';

/** Body limit of an operation that declares none: a record, a filter or a report is a few KB. */
export const DEFAULT_BODY_LIMIT = '1mb';
/** Body limit of the bulk operations (importList, saveBatch): up to MAX_BATCH_ROWS rows. */
export const BULK_BODY_LIMIT = '16mb';
/** Form-encoded bodies (saveMissing's i18next reports are the only ones) are small on every route. */
const FORM_BODY_LIMIT = '64kb';
/**
 * Most JSON values one body may hold: 50,000 import rows of 9 fields fit. Counted on the text before it is
 * parsed, so JSON.parse never builds more than this many values: the most the bound admits (250,000 empty
 * arrays) takes it about 30 ms on an idle core, where 16 MB of them (5 million) took seconds.
 */
export const MAX_BODY_VALUES = 500_000;

/** Route metadata key of an operation's own body limit (`Operation({ bodyLimit })`). */
export const BODY_LIMIT = 'body-limit';

/** The inflated length of the JSON text a request's body was parsed from (set by boundValues). */
const JSON_BYTES = Symbol('json bytes');

type Parser = (req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void) => void;

/**
 * Refuses, before JSON.parse, a body that is not UTF-8 (RFC 8259 requires it, and the count reads bytes)
 * or that holds more than MAX_BODY_VALUES values. body-parser calls it with the inflated bytes.
 */
function boundValues(req: IncomingMessage, _res: ServerResponse, body: Buffer, encoding: string): void {
  if (encoding !== 'utf-8') throw Object.assign(new Error('JSON must be UTF-8'), { type: 'charset.unsupported' });
  (req as IncomingMessage & { [JSON_BYTES]?: number })[JSON_BYTES] = body.length;
  if (countJsonValues(body, MAX_BODY_VALUES) > MAX_BODY_VALUES)
    throw AppException.validation(`Request body holds more than ${MAX_BODY_VALUES} JSON values`);
}

/** body-parser's JSON and form parsers for one limit, made once per limit. */
const parsers = new Map<string, [Parser, Parser]>();
function parsersFor(limit: string): [Parser, Parser] {
  let pair = parsers.get(limit);
  if (!pair) {
    // the limit counts the bytes after Content-Encoding is undone: a small gzip body cannot unpack past it
    pair = [json({ limit, verify: boundValues }) as Parser, urlencoded({ extended: false, limit: FORM_BODY_LIMIT }) as Parser];
    parsers.set(limit, pair);
  }
  return pair;
}

/** Whether the request has a body at all (body-parser's own test: a length or a transfer encoding). */
const hasBody = (req: IncomingMessage): boolean =>
  req.headers['transfer-encoding'] !== undefined || !Number.isNaN(Number(req.headers['content-length'] ?? NaN));

/**
 * Reads, parses and sanitizes the request body within `limit`: JSON or form-encoded (anything else, such
 * as multipart, is left to the route), then sanitizeBody. Undefined when there is no body to read. Called
 * once the route is known and its caller admitted (EnvelopeInterceptor): the body of an unknown route or a
 * refused caller is never read. Failures are body-parser's errors (413, 415, 1004) or AppExceptions (400).
 * JSON text of at most SMALL_BODY_BYTES (counted after Content-Encoding is undone) is sanitized in one go.
 */
export function readRequestBody(req: Request, res: Response, limit: string = DEFAULT_BODY_LIMIT): Promise<void> | undefined {
  if (!hasBody(req)) return undefined;
  const [jsonParser, formParser] = parsersFor(limit);
  return new Promise<void>((resolve, reject) => {
    const sanitize = (error?: unknown) => {
      if (error) return reject(error);
      const bytes = (req as Request & { [JSON_BYTES]?: number })[JSON_BYTES];
      if (bytes === undefined || bytes > SMALL_BODY_BYTES) return void sanitizeBody(req.body).then(resolve, reject);
      try {
        sanitizeSmallBody(req.body);
        resolve();
      } catch (refusal) {
        reject(refusal);
      }
    };
    jsonParser(req, res, (error) => (error ? reject(error) : formParser(req, res, sanitize)));
  });
}
