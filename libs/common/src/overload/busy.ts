import { Message, message } from '../i18n/message';

/** What every refusal for load says (contract.md "Overload"), with the seconds its Retry-After names. */
export const busyText = (retryAfterSeconds: number): Message =>
  message('Service busy, retry after {{seconds}} s', { seconds: retryAfterSeconds });

/** An admitted request did not get a pool connection within its wait: refused for load (503 + Retry-After), not a fault. */
export class ConnectionWaitExpired extends Error {
  readonly code = 'ECONNWAITEXPIRED';

  constructor(readonly retryAfterSeconds: number) {
    super('no database connection within the wait for one');
    this.name = 'ConnectionWaitExpired';
  }
}

/** The request's client has gone: nothing more reaches the database for it. */
export class ClientGoneError extends Error {
  readonly code = 'ECLIENTGONE';

  constructor() {
    super('the client left before the response was sent');
    this.name = 'ClientGoneError';
  }
}

/** The error itself or, as TypeORM wraps a driver's errors, its `driverError`. */
const either = (error: unknown): unknown[] => [error, (error as { driverError?: unknown } | null)?.driverError];

export const waitExpired = (error: unknown): ConnectionWaitExpired | undefined =>
  either(error).find((e): e is ConnectionWaitExpired => e instanceof ConnectionWaitExpired);

/** MariaDB's error for a statement that KILL QUERY stopped. */
const QUERY_INTERRUPTED = 1317;

/** Nothing was done, or was stopped, because the request's client left (`gone`: whether it has). */
export const clientGone = (error: unknown, gone = false): boolean =>
  either(error).some((e) => e instanceof ClientGoneError || (gone && (e as { errno?: unknown } | null)?.errno === QUERY_INTERRUPTED));
