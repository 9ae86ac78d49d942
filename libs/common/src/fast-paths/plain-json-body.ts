import type { IncomingMessage } from 'node:http';

/** `application/json` alone or with JSON's one charset (RFC 8259), as clients send it. */
const PLAIN_JSON = /^application\/json(?:[ \t]*;[ \t]*charset=(?:utf-8|"utf-8"))?$/i;

/** Content-Length as Node's parser admits it (digits only), for a length within the limit. */
const DIGITS = /^\d+$/;

/**
 * The byte length of a body that can be read the short way: JSON (PLAIN_JSON) with a Content-Length within `limit`,
 * no Content-Encoding or Transfer-Encoding, on a request whose stream is still open. Undefined otherwise, and
 * body-parser reads the body (another type or charset, a compressed body, a body past the limit, a finished request).
 */
export function plainJsonLength(req: IncomingMessage & { upgrade?: boolean }, limit: number): number | undefined {
  const { headers, socket } = req;
  const length = headers['content-length'];
  const type = headers['content-type'];
  if (length === undefined || type === undefined || headers['transfer-encoding'] !== undefined || headers['content-encoding'] !== undefined)
    return undefined;
  if ((type !== 'application/json' && !PLAIN_JSON.test(type)) || !DIGITS.test(length)) return undefined;
  const bytes = Number(length);
  // on-finished's test, which body-parser asks first: such a request's body is not read at all
  if (bytes > limit || req.upgrade || !socket || !socket.readable || (req.complete && !req.readable)) return undefined;
  return bytes;
}

/** raw-body's failure when the client stops sending, in the shape the exception filter knows it by. */
const aborted = (length: number, received: number) =>
  Object.assign(new Error('request aborted'), {
    code: 'ECONNABORTED',
    status: 400,
    statusCode: 400,
    expose: true,
    expected: length,
    length,
    received,
    type: 'request.aborted',
  });

/**
 * The bytes of that body, read as raw-body reads them for body-parser: chunks as they come, one buffer at the end.
 * Fails as raw-body does when the client stops sending (`request.aborted`) or the stream fails (its error, status 400
 * as body-parser gives it). Replaces: body-parser's type and charset parsing, raw-body's reader and iconv-lite's decoder.
 */
export function readPlainJson(req: IncomingMessage, length: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let received = 0;
    const onData = (chunk: Buffer) => {
      received += chunk.length;
      chunks.push(chunk);
    };
    const finish = (error?: Error) => {
      req.off('data', onData).off('end', onEnd).off('aborted', onAborted).off('error', onError);
      if (error) reject(error);
      else resolve(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, received));
    };
    const onEnd = () => finish();
    const onAborted = () => finish(aborted(length, received));
    const onError = (error: Error & { status?: number }) => finish(Object.assign(error, { status: error.status ?? 400 }));
    req.on('data', onData).on('end', onEnd).on('aborted', onAborted).on('error', onError);
  });
}
