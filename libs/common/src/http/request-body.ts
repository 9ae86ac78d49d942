import type { IncomingMessage, ServerResponse } from 'node:http';
import { isUtf8 } from 'node:buffer';
import type { Request, Response } from 'express';
import { text, urlencoded } from 'express';
import { TimeSlice } from '../background/time-slice';
import { message } from '../i18n/message';
import { AppException } from './app-exception';
import { sanitizeBody, sanitizeSmallBody, SMALL_BODY_BYTES } from './body-sanitizer';
import { JsonBounds, JsonShape, measureJson, parseJsonRows } from './json-values';

/** Body limit of an operation that declares none: a record, a filter or a report is a few KB. */
export const DEFAULT_BODY_LIMIT = '1mb';
/** Body limit of the bulk operations (importList, saveBatch): up to MAX_BATCH_ROWS rows. */
export const BULK_BODY_LIMIT = '16mb';
/** Form-encoded bodies (saveMissing's i18next reports are the only ones) are small on every route. */
const FORM_BODY_LIMIT = '64kb';
/**
 * Most JSON values one body may hold: 50,000 import rows of 8 fields fit. Counted on the text before it is
 * parsed, so JSON.parse never builds more than this many values: the most the bound admits (250,000 empty
 * arrays) takes it about 30 ms on an idle core, where 16 MB of them (5 million) took seconds.
 */
export const MAX_BODY_VALUES = 500_000;
/**
 * Deepest nesting of objects and arrays a request body may have. No real body comes near it; the
 * bound keeps recursive conversion and validation (class-transformer, class-validator) far from the
 * call-stack limit, which ~5,000 levels of `[[[...]]]` would otherwise reach.
 */
export const MAX_BODY_DEPTH = 32;
/**
 * Most properties (of all its objects, nested ones included) in one record: an object body, or one row of
 * an array body. class-transformer converts a record in one go and de-duplicates each object's keys with
 * indexOf, so its time grows with the square of the keys: 64,000 keys held the process for seconds. No
 * write body declares more than a few dozen properties, and saveMissing takes at most 100 keys.
 */
export const MAX_RECORD_PROPERTIES = 1_000;
/**
 * Most JSON values in one record. Conversion and validation walk every value of a record in one go (each
 * item of a list with every rule of the list): 1 MB of e-mail addresses (110,000) held the process for half
 * a second on an idle core, seconds on a busy one. The longest list a body declares holds 100 items.
 */
export const MAX_RECORD_VALUES = 10_000;

const BOUNDS: JsonBounds = {
  values: MAX_BODY_VALUES,
  depth: MAX_BODY_DEPTH,
  recordValues: MAX_RECORD_VALUES,
  recordProperties: MAX_RECORD_PROPERTIES,
};

/** Route metadata key of an operation's own body limit (`Operation({ bodyLimit })`). */
export const BODY_LIMIT = 'body-limit';

/** The inflated length of the JSON text a request's body was read from (set by strictJson). */
const JSON_BYTES = Symbol('json bytes');

type Parser = (req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void) => void;

/** A failure of reading the body, typed for the envelope (exception.filter.ts maps body-parser's types and these). */
const readFailure = (text: string, type: string) => Object.assign(new Error(text), { type });

/**
 * Refuses a JSON body that is not UTF-8: another charset (RFC 8259 requires UTF-8), or bytes that are not
 * UTF-8 at all, which decoding would silently turn into U+FFFD, so distinct inputs would collide.
 * body-parser calls it with the inflated bytes, before decoding them.
 */
function strictJson(req: IncomingMessage, _res: ServerResponse, body: Buffer, encoding: string): void {
  if (encoding !== 'utf-8') throw readFailure('JSON must be UTF-8', 'charset.unsupported');
  if (!isUtf8(body)) throw readFailure('JSON is not valid UTF-8', 'charset.invalid');
  (req as IncomingMessage & { [JSON_BYTES]?: number })[JSON_BYTES] = body.length;
}

const PERCENT_ESCAPE = /%([0-9a-fA-F]{2})/g;

/** The bytes a form body's text stands for: each %XX escape as its byte (latin1 maps bytes and characters one to one). */
const unescapedBytes = (body: Buffer): Buffer =>
  Buffer.from(
    body.toString('latin1').replace(PERCENT_ESCAPE, (_escape, hex: string) => String.fromCharCode(parseInt(hex, 16))),
    'latin1',
  );

/**
 * strictJson for a form body in UTF-8: its bytes, and the bytes its %XX escapes stand for, must be UTF-8
 * (the query parser would keep an escape of invalid UTF-8 as its literal text).
 */
function strictForm(_req: IncomingMessage, _res: ServerResponse, body: Buffer, encoding: string): void {
  if (encoding === 'utf-8' && !(isUtf8(body) && isUtf8(unescapedBytes(body))))
    throw readFailure('Form body is not valid UTF-8', 'charset.invalid');
}

/** The readers of one limit: body-parser's JSON text reader and form parser. */
interface Readers {
  json: Parser;
  form: Parser;
}

/** The readers of each limit, made once per limit. */
const readers = new Map<string, Readers>();
function readersFor(limit: string): Readers {
  let found = readers.get(limit);
  if (!found) {
    // the limit counts the bytes after Content-Encoding is undone: a small gzip body cannot unpack past it
    found = {
      json: text({ type: 'application/json', limit, verify: strictJson }) as Parser,
      form: urlencoded({ extended: false, limit: FORM_BODY_LIMIT, verify: strictForm }) as Parser,
    };
    readers.set(limit, found);
  }
  return found;
}

/** What a body past each of BOUNDS is told; a record's bound names the row of an array body. */
const REFUSALS: Record<keyof JsonBounds, { body: string; row?: string }> = {
  values: { body: 'Request body holds more than {{max}} JSON values' },
  depth: { body: 'Request body nests deeper than {{max}} levels' },
  recordValues: { body: 'Request body holds more than {{max}} JSON values', row: '[{{row}}]: a row holds more than {{max}} JSON values' },
  recordProperties: { body: 'Request body holds more than {{max}} properties', row: '[{{row}}]: a row holds more than {{max}} properties' },
};

function shapeRefusal({ bound, row }: NonNullable<JsonShape['excess']>): AppException {
  const texts = REFUSALS[bound];
  const template = row !== undefined && texts.row ? texts.row : texts.body;
  return AppException.validation(message(template, { max: BOUNDS[bound], ...(row === undefined ? {} : { row }) }));
}

/** A JSON body's first character (after whitespace) when it is neither `{` nor `[`: body-parser's strict mode refuses those. */
const NOT_OBJECT_OR_ARRAY = /^[\x20\x09\x0a\x0d]*(?:[^\x20\x09\x0a\x0d{[]|$)/;

/**
 * Parses JSON text read from a request within BOUNDS, measured before any of it is parsed. A text longer
 * than SMALL_BODY_BYTES gives the event loop turns while it is measured, and an array one while it is parsed
 * row by row. As body-parser's JSON parser did: empty text is `{}`, anything but an object or an array is
 * malformed.
 */
async function parseJsonBody(json: string): Promise<unknown> {
  if (json.length === 0) return {};
  const malformed = () => readFailure('Malformed JSON', 'entity.parse.failed');
  if (NOT_OBJECT_OR_ARRAY.test(json)) throw malformed();
  const slice = json.length > SMALL_BODY_BYTES ? new TimeSlice() : undefined;
  const pause = slice && (() => slice.pause());
  const shape = await measureJson(json, BOUNDS, pause);
  if (shape.excess) throw shapeRefusal(shape.excess);
  try {
    if (shape.separators && pause) return await parseJsonRows(json, shape.separators, pause);
    return JSON.parse(json);
  } catch {
    throw malformed();
  }
}

/** Whether the request has a body at all (body-parser's own test: a length or a transfer encoding). */
const hasBody = (req: IncomingMessage): boolean =>
  req.headers['transfer-encoding'] !== undefined || !Number.isNaN(Number(req.headers['content-length'] ?? NaN));

/**
 * body-parser's failure, typed where it carries none: a stream error while reading, which is zlib's for a
 * compressed body that is corrupt or cut short (body-parser gives it status 400 and no type).
 */
function typedFailure(error: unknown): unknown {
  const e = error as { type?: string; status?: number } | undefined;
  if (e && e.type === undefined && e.status === 400) e.type = 'encoding.corrupt';
  return error;
}

/**
 * Reads, parses and sanitizes the request body within `limit` (DEFAULT_BODY_LIMIT when the operation sets none):
 * JSON or form-encoded (anything else, such as multipart, is left to the route), then sanitizeBody. Undefined when
 * there is no body to read. Called by the body parameter's pipe (body-param.ts), which Nest runs once the route's
 * guards have admitted the caller: the body of an unknown route or a refused caller is never read, nor that of a
 * route without a body parameter. Failures are body-parser's errors (400, 413, 415, 1004) or AppExceptions (400).
 * JSON text of at most SMALL_BODY_BYTES (counted after Content-Encoding is undone) is sanitized in one go.
 */
export function readRequestBody(req: Request, res: Response, limit: string | undefined): Promise<void> | undefined {
  if (!hasBody(req)) return undefined;
  return readWithBodyParser(req, res, readersFor(limit ?? DEFAULT_BODY_LIMIT)).then(() => sanitizeRead(req));
}

/** body-parser's JSON text reader, then (for any other body) its form parser: `req.body` parsed, not yet sanitized. */
function readWithBodyParser(req: Request, res: Response, { json, form }: Readers): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    json(req, res, (error) => {
      if (error) return reject(typedFailure(error));
      if (typeof req.body === 'string')
        return void parseJsonBody(req.body).then((body) => {
          req.body = body;
          resolve();
        }, reject);
      form(req, res, (formError) => (formError ? reject(typedFailure(formError)) : resolve()));
    });
  });
}

/** sanitizeBody of what was read; in one go for JSON text of at most SMALL_BODY_BYTES (counted after Content-Encoding is undone). */
function sanitizeRead(req: Request): Promise<void> | void {
  const bytes = (req as Request & { [JSON_BYTES]?: number })[JSON_BYTES];
  if (bytes === undefined || bytes > SMALL_BODY_BYTES) return sanitizeBody(req.body);
  sanitizeSmallBody(req.body);
}
