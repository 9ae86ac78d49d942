/**
 * Why an attempt at a server or provider failed, as stored in `errorMessage`: the category, then the SMTP or
 * HTTP status or the local system's error code when there is one (`REJECTED SMTP 550`, `CONNECT ECONNREFUSED`).
 * Never the remote server's text: a banner or reply of a service that should not have been reached, or a
 * reply echoing the login, would otherwise end up in a record the tenant reads.
 */
export const FAILURE_CATEGORIES = [
  /** The destination resolves to an address delivery may not use (address-guard.ts). */
  'ADDRESS_NOT_ALLOWED',
  /** No connection: name not resolved, refused, reset, closed early. */
  'CONNECT',
  'TIMEOUT',
  /** TLS could not be set up: handshake, certificate, or STARTTLS needed for the login but not offered. */
  'TLS',
  'AUTH',
  /** The server or provider answered with a refusal (SMTP 4xx/5xx, HTTP non-2xx). */
  'REJECTED',
  /** An answer that breaks the protocol (an SMS provider answer without a usable messageId). */
  'PROTOCOL',
] as const;
export type FailureCategory = (typeof FAILURE_CATEGORIES)[number];

/**
 * Why an attempt failed. `permanent`: trying again cannot help until someone changes the data (no
 * configuration, no SMS package, a refused address), so the message is FAILED at once instead of backing off.
 * `category`: set for a failure at the destination (DeliveryFailure.of).
 */
export class DeliveryFailure extends Error {
  constructor(
    message: string,
    readonly permanent = false,
    readonly category?: FailureCategory,
  ) {
    super(message);
    this.name = 'DeliveryFailure';
  }

  /** A failure at the destination: its category and, when known, a status or code (`SMTP 535`, `HTTP 503`, `ECONNREFUSED`). */
  static of(category: FailureCategory, detail?: string, permanent = false): DeliveryFailure {
    return new DeliveryFailure(detail ? `${category} ${detail}` : category, permanent, category);
  }

  /**
   * The server was not reached or stalled (the sender configuration's circuit breaker counts these), as
   * opposed to an answer of the server (a refusal, a failed login), which shows it is up.
   */
  get unreachable(): boolean {
    return this.category === 'CONNECT' || this.category === 'TIMEOUT';
  }
}

/** Node's code of a system or TLS error (ENOTFOUND, ECONNREFUSED, CERT_HAS_EXPIRED...): the local side's word, never a remote text. */
export function systemCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^[A-Z][A-Z0-9_]{1,63}$/.test(code) ? code : undefined;
}

/** Codes of Node's TLS layer: the handshake and the certificate checks. */
const TLS_CODES = /^(ERR_TLS_|ERR_SSL_|CERT_|UNABLE_TO_|DEPTH_ZERO_|SELF_SIGNED_|HOSTNAME_MISMATCH)/;

/** A connection that failed on the local side's terms, by its system code: TLS, TIMEOUT or CONNECT. */
export function connectionFailure(code: string | undefined): DeliveryFailure {
  if (code && TLS_CODES.test(code)) return DeliveryFailure.of('TLS', code);
  if (code === 'ETIMEDOUT') return DeliveryFailure.of('TIMEOUT');
  return DeliveryFailure.of('CONNECT', code);
}
