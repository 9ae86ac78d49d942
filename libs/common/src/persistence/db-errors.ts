/** Driver error codes, normalised across mysql2 and better-sqlite3 (notes/mysql-sqlite-portability.md). */
const DUPLICATE_CODES = new Set(['ER_DUP_ENTRY', 'SQLITE_CONSTRAINT_UNIQUE', 'SQLITE_CONSTRAINT_PRIMARYKEY']);
const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'ENOTFOUND', 'EHOSTUNREACH', 'PROTOCOL_CONNECTION_LOST',
  'ER_CON_COUNT_ERROR', 'ER_ACCESS_DENIED_ERROR', 'ER_LOCK_WAIT_TIMEOUT', 'ER_LOCK_DEADLOCK', 'ER_SERVER_SHUTDOWN',
  'SQLITE_BUSY', 'SQLITE_LOCKED', 'SQLITE_IOERR', 'SQLITE_FULL', 'SQLITE_CANTOPEN',
]);
const UNAVAILABLE_NAMES = new Set(['ConnectionIsNotSetError', 'CannotExecuteNotConnectedError', 'ConnectionNotFoundError']);

function codeOf(error: unknown): string | undefined {
  const e = error as { code?: unknown; driverError?: { code?: unknown } };
  const code = e?.driverError?.code ?? e?.code;
  return typeof code === 'string' ? code : undefined;
}

export function isDuplicateKeyError(error: unknown): boolean {
  const code = codeOf(error);
  return code !== undefined && DUPLICATE_CODES.has(code);
}

export function isStorageUnavailableError(error: unknown): boolean {
  const code = codeOf(error);
  if (code !== undefined && UNAVAILABLE_CODES.has(code)) return true;
  if (/queue limit|Pool is closed|connect ETIMEDOUT/i.test(String((error as Error)?.message))) return true;
  return UNAVAILABLE_NAMES.has((error as Error)?.name);
}
