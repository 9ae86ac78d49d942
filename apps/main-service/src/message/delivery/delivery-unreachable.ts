/** Error codes of a server that could not be reached or did not answer in time (nodemailer, Node's sockets, undici). */
const UNREACHABLE_CODES = new Set([
  // nodemailer: connect/greeting/idle timeouts, a connection lost or refused, a failed DNS lookup
  'ETIMEDOUT',
  'ECONNECTION',
  'ESOCKET',
  'EDNS',
  // Node's sockets
  'ECONNREFUSED',
  'ECONNRESET',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EPIPE',
  // undici (fetch)
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'UND_ERR_SOCKET',
]);

/**
 * Whether an attempt failed because the server could not be reached or stalled (the sender configuration's
 * circuit breaker counts these), as opposed to an answer of the server (a 5xx reply, a refused login).
 * fetch reports a network failure as "fetch failed" with the reason in `cause`; its timeout is a TimeoutError.
 */
export function isUnreachable(error: unknown): boolean {
  for (let e = error, depth = 0; e instanceof Error && depth < 3; e = e.cause, depth++) {
    const code = (e as Error & { code?: unknown }).code;
    if (e.name === 'TimeoutError' || (typeof code === 'string' && UNREACHABLE_CODES.has(code))) return true;
  }
  return false;
}
