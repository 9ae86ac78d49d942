import pino from 'pino';
import { processOutput } from '../logging/app-logging';
import { MIGRATE_HINT } from '../health/schema-state';
import { printableDatabaseUrl, readDatabaseUrl } from '../logging/database-url';

/**
 * Why a service could not start, said once and plainly: one JSON line (or readable text on a terminal)
 * naming the variable to change, no stack trace, then exit 1. For failures an operator fixes by
 * configuration: invalid variables, a port in use, a database that cannot be reached.
 */
export class StartupFailure extends Error {
  constructor(
    message: string,
    readonly problems: string[] = [],
  ) {
    super(message);
    this.name = 'StartupFailure';
  }
}

/** Driver and system error codes of a database that cannot be reached or refuses the login. */
const DATABASE_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ECONNRESET',
  'ER_ACCESS_DENIED_ERROR',
  'ER_DBACCESS_DENIED_ERROR',
  'ER_BAD_DB_ERROR',
]);

/** The failure an operator can act on, or null for anything else (a bug: it keeps its stack). */
export function explainStartupError(error: unknown, env: Record<string, string | undefined>): StartupFailure | null {
  if (error instanceof StartupFailure) return error;
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  const port = (error as { port?: unknown }).port ?? env.PORT;
  if (code === 'EADDRINUSE')
    return new StartupFailure(`PORT ${port} is already in use: stop what listens there or set PORT to a free port`);
  if (code === 'EACCES' && /listen/i.test(String(message)))
    return new StartupFailure(`PORT ${port}: not allowed to listen there (ports below 1024 need privileges)`);
  if (typeof code === 'string' && DATABASE_CODES.has(code) && env.DB_URL)
    return new StartupFailure(
      `Cannot use the database at DB_URL=${printableDatabaseUrl(env.DB_URL)}: ${code} (${maskedText(String(message), env.DB_URL)})` +
        // the migrations create the database, then its tables
        (code === 'ER_BAD_DB_ERROR' ? `: it does not exist; ${MIGRATE_HINT}` : ''),
    );
  return null;
}

/** Reports a failure an operator can act on and exits 1; anything else is thrown on, stack and all (a bug). */
export function failStartup(service: string, error: unknown): never {
  const failure = explainStartupError(error, process.env);
  if (failure) exitWithStartupFailure(service, failure);
  throw error;
}

/** A driver message with the URL's password, should it appear, blanked. */
function maskedText(text: string, url: string): string {
  const password = readDatabaseUrl(url)?.password;
  return (password ? text.split(password).join('***') : text).replace(/\s+/g, ' ').trim();
}

/** Writes the report after the lines already logged (the process exits right after) and exits 1. */
export function exitWithStartupFailure(service: string, failure: StartupFailure): never {
  const output = processOutput();
  if (process.stdout.isTTY) {
    output.write(`${service} did not start: ${failure.message}\n${failure.problems.map((p) => `  ${p}\n`).join('')}`);
  } else {
    const logger = pino({ base: { service }, timestamp: pino.stdTimeFunctions.isoTime }, output);
    logger.fatal({ context: 'Startup', ...(failure.problems.length ? { problems: failure.problems } : {}) }, failure.message);
  }
  output.flushSync();
  process.exit(1);
}
