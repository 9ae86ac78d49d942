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
  // a Galera node that is not ready (joining, donor, non-primary): "WSREP has not yet prepared node for application use"
  'ER_UNKNOWN_COM_ERROR',
  'SQLITE_BUSY',
  'SQLITE_BUSY_SNAPSHOT',
  'SQLITE_LOCKED',
  'SQLITE_IOERR',
  'SQLITE_FULL',
  'SQLITE_CANTOPEN',
]);
/**
 * The server's errors for a statement past its deadline, by number: MariaDB's when one ran past max_statement_time,
 * MySQL's when a SELECT ran past max_execution_time. mysql2 names only MySQL's, so the names are kept here.
 */
const STATEMENT_TIMEOUTS = new Map([
  [1969, 'ER_STATEMENT_TIMEOUT'],
  [3024, 'ER_QUERY_TIMEOUT'],
]);
/** TypeORM 1.x names all its errors `TypeORMError`: recognise the not-connected ones by class. */
const NOT_CONNECTED = [CannotExecuteNotConnectedError, ConnectionIsNotSetError, CannotGetEntityManagerNotConnectedError];

function codeOf(error: unknown): string | undefined {
  const e = error as { code?: unknown; driverError?: { code?: unknown } };
  const code = e?.driverError?.code ?? e?.code;
  return typeof code === 'string' ? code : undefined;
}

function errnoOf(error: unknown): unknown {
  const e = error as { errno?: unknown; driverError?: { errno?: unknown } };
  return e?.driverError?.errno ?? e?.errno;
}

export function isDuplicateKeyError(error: unknown): boolean {
  const code = codeOf(error);
  return code !== undefined && DUPLICATE_CODES.has(code);
}

/**
 * The transaction lost a race with a concurrent one, was rolled back whole and can only be run again: a deadlock's
 * victim, a Galera transaction that failed certification against another node's write (also ER_LOCK_DEADLOCK), or
 * (SQLite in WAL mode, another connection on the same file) a transaction whose snapshot another one's commit made stale.
 */
export function isConcurrentConflictError(error: unknown): boolean {
  const code = codeOf(error);
  return code === 'ER_LOCK_DEADLOCK' || code === 'SQLITE_BUSY_SNAPSHOT';
}

/**
 * The server stopped a statement that ran past its deadline (DB_STATEMENT_TIMEOUT_MS, statement-deadline.ts): MariaDB's
 * ER_STATEMENT_TIMEOUT or MySQL's ER_QUERY_TIMEOUT, told by number (mysql2 names only MySQL's). Only the statement ended:
 * its connection and transaction go on, as after any failed statement.
 */
export function isStatementTimeoutError(error: unknown): boolean {
  return STATEMENT_TIMEOUTS.has(errnoOf(error) as number);
}

/**
 * The driver's name of a database error, for log lines: its code, or the server's name of a deadline error that mysql2
 * leaves without one (it names errors from MySQL's list, which lacks MariaDB's 1969).
 */
export function driverCodeOf(error: unknown): string | undefined {
  return codeOf(error) ?? STATEMENT_TIMEOUTS.get(errnoOf(error) as number);
}

/** The database cannot answer now (down, unreachable, overloaded, a lock or a statement past its deadline): a 503. */
export function isStorageUnavailableError(error: unknown): boolean {
  if (isStatementTimeoutError(error)) return true;
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
