import { CannotExecuteNotConnectedError, CannotGetEntityManagerNotConnectedError, ConnectionIsNotSetError } from 'typeorm';

/** Driver error codes, normalised across mysql2 and better-sqlite3. */
const DUPLICATE_CODES = new Set(['ER_DUP_ENTRY', 'SQLITE_CONSTRAINT_UNIQUE', 'SQLITE_CONSTRAINT_PRIMARYKEY']);
const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'PROTOCOL_CONNECTION_LOST',
  'ER_CON_COUNT_ERROR',
  'ER_ACCESS_DENIED_ERROR',
  'ER_LOCK_WAIT_TIMEOUT',
  'ER_LOCK_DEADLOCK',
  'ER_SERVER_SHUTDOWN',
  'SQLITE_BUSY',
  'SQLITE_BUSY_SNAPSHOT',
  'SQLITE_LOCKED',
  'SQLITE_IOERR',
  'SQLITE_FULL',
  'SQLITE_CANTOPEN',
]);
/** TypeORM 1.x names all its errors `TypeORMError`: recognise the not-connected ones by class. */
const NOT_CONNECTED = [CannotExecuteNotConnectedError, ConnectionIsNotSetError, CannotGetEntityManagerNotConnectedError];

function codeOf(error: unknown): string | undefined {
  const e = error as { code?: unknown; driverError?: { code?: unknown } };
  const code = e?.driverError?.code ?? e?.code;
  return typeof code === 'string' ? code : undefined;
}

export function isDuplicateKeyError(error: unknown): boolean {
  const code = codeOf(error);
  return code !== undefined && DUPLICATE_CODES.has(code);
}

/** MySQL/MariaDB chose this transaction as a deadlock's victim and rolled it back: running it again is safe. */
export function isDeadlockError(error: unknown): boolean {
  return codeOf(error) === 'ER_LOCK_DEADLOCK';
}

/**
 * The transaction lost a race with a concurrent one and can only be run again: a deadlock's victim, or (SQLite in
 * WAL mode, another connection on the same file) a transaction whose snapshot another one's commit made stale.
 */
export function isConcurrentConflictError(error: unknown): boolean {
  const code = codeOf(error);
  return code === 'ER_LOCK_DEADLOCK' || code === 'SQLITE_BUSY_SNAPSHOT';
}

export function isStorageUnavailableError(error: unknown): boolean {
  const code = codeOf(error);
  if (code !== undefined && UNAVAILABLE_CODES.has(code)) return true;
  if (
    /queue limit|Pool is closed|connect ETIMEDOUT|database connection is not open|Connection is not established/i.test(
      String((error as Error)?.message),
    )
  )
    return true;
  return NOT_CONNECTED.some((type) => error instanceof type);
}
