import { EntityManager, ObjectLiteral, QueryFailedError, QueryRunner, QueryRunnerAlreadyReleasedError } from 'typeorm';
import type { QueryError } from 'mysql2';
import { isMysqlFamily } from '../upsert-sql';
import { driverPool } from './driver-pool';

/**
 * How often a statement's text comes back: `repeated` for one built once per shape (prepared-finds.ts,
 * prepared-updates.ts, a single row's INSERT), `once` for one built for its call (other conditions, SQL expressions,
 * a later page, a multi-row write), whose text may never come back.
 */
export type TextReuse = 'repeated' | 'once';

type Callback = (error: QueryError | null, result: unknown) => void;
/** A value as bound: what TypeORM's driver prepares a column's value into (run-statement.ts binds no other). */
type Bound = string | number | bigint | boolean | Date | Buffer | null;
/** mysql2's (callback) pool (driver-pool.ts), or one of its connections, as the statements here call them. */
interface Mysql2Pool {
  execute(sql: string, values: Bound[], callback: Callback): unknown;
  query(sql: string, values: Bound[], callback: Callback): unknown;
}

/**
 * A prepared statement the server does not run, where the same text runs: past the server's cap on prepared
 * statements (max_prepared_stmt_count, all its clients together), or refused with "table doesn't exist" for a table
 * that the triggers of its table write, which MariaDB answers a prepared statement at the moment a CREATE TRIGGER
 * on its table commits (a migration adding triggers to a table in use). Either fails before any row is touched.
 */
const runAsText = (error: QueryError): boolean => error.code === 'ER_MAX_PREPARED_STMT_COUNT_REACHED' || error.code === 'ER_NO_SUCH_TABLE';

/**
 * The rows a SELECT (or an INSERT ... RETURNING) reads. The one way the tables' statements reach the database:
 * - on MySQL/MariaDB by mysql2 directly, past TypeORM's query runner, which costs a tenth of a light request's CPU (a
 *   runner object, connect and release, its broadcaster and QueryResult, and mysql2's promise wrapper, which resolves
 *   a module on every call):
 *   - inside a transaction (a manager of a query runner) on the connection the runner holds (`connect()`), as the
 *     runner sends its own: text with the values written in (MariaDB plans a first page's deferred join and count
 *     with written-in values for less of its CPU than the same statements prepared);
 *   - outside one, a `repeated` text as a server-side prepared statement on the driver's pool (mysql2 parses and
 *     plans it once per connection instead of once per call; each connection keeps its 64 most recent: database.ts),
 *     a `once` text as text on the pool, never prepared (it would push a repeated one out of the connection's cache);
 *   - text (not the prepared ones, which have no text to log) goes through TypeORM's query log hooks as the runner's
 *     own statements do;
 * - on SQLite (and a MySQL driver without a single pool) by the manager's query runner, or one of its own, as
 *   TypeORM's repository and query builders run theirs.
 * A failure is TypeORM's QueryFailedError around the driver's error either way, so the duplicate-key and
 * storage-unavailable mapping and the log lines stay the same.
 */
export async function selectRows(manager: EntityManager, sql: string, values: unknown[], reuse: TextReuse): Promise<ObjectLiteral[]> {
  const direct = mysqlRun(manager, reuse);
  if (direct) return (await direct(sql, values)) as ObjectLiteral[];
  return (await byQueryRunner(manager, sql, values)).records ?? [];
}

/** How many rows an UPDATE, INSERT or DELETE matched or wrote: run as selectRows runs a statement. */
export async function changeRows(manager: EntityManager, sql: string, values: unknown[], reuse: TextReuse): Promise<number> {
  const direct = mysqlRun(manager, reuse);
  if (direct) return ((await direct(sql, values)) as { affectedRows: number }).affectedRows;
  return (await byQueryRunner(manager, sql, values)).affected ?? 0;
}

/** The statement through TypeORM's query runner (SQLite, or a MySQL driver holding no single pool): the manager's (a transaction's), else one taken for it and given back. */
async function byQueryRunner(
  manager: EntityManager,
  sql: string,
  values: unknown[],
): Promise<{ records?: ObjectLiteral[]; affected?: number }> {
  const runner = manager.queryRunner ?? manager.dataSource.createQueryRunner();
  try {
    return await runner.query(sql, values, true);
  } finally {
    if (runner !== manager.queryRunner) await runner.release();
  }
}

type DirectRun = (sql: string, values: unknown[]) => Promise<unknown>;

/** How a statement runs by mysql2 directly on MySQL/MariaDB (see selectRows); undefined on SQLite. */
function mysqlRun(manager: EntityManager, reuse: TextReuse): DirectRun | undefined {
  if (!isMysqlFamily(manager.dataSource)) return undefined;
  const runner = manager.queryRunner;
  if (runner) return onRunnerConnection(manager, runner);
  const pool: Mysql2Pool | undefined = driverPool(manager.dataSource);
  if (!pool) return undefined;
  return reuse === 'repeated' ? preparedOnPool(pool) : asText(manager, pool);
}

/** Prepared on the pool; where the server does not run it prepared (runAsText), it runs unprepared, as TypeORM runs it. */
function preparedOnPool(pool: Mysql2Pool): DirectRun {
  return settled((sql, values, settle) =>
    pool.execute(sql, values, (error, result) => (error && runAsText(error) ? pool.query(sql, values, settle) : settle(error, result))),
  );
}

/** As text on the runner's connection; refused, as the runner's own query is, once the runner is released. */
function onRunnerConnection(manager: EntityManager, runner: QueryRunner): DirectRun {
  return async (sql, values) => {
    if (runner.isReleased) throw new QueryRunnerAlreadyReleasedError();
    return asText(manager, (await runner.connect()) as Mysql2Pool, runner)(sql, values);
  };
}

/** As text on `target` (the pool, or a runner's connection), through TypeORM's query log hooks as a runner sends its own. */
function asText(manager: EntityManager, target: Mysql2Pool, runner?: QueryRunner): DirectRun {
  const { logger } = manager.dataSource;
  return settled((text, bound, settle) => {
    logger.logQuery(text, bound, runner);
    target.query(text, bound, (error, result) => {
      if (error) logger.logQueryError(error, text, bound, runner);
      settle(error, result);
    });
  });
}

/** `send` as a DirectRun: undefined values bound as NULL, a failure as TypeORM's QueryFailedError. */
function settled(send: (sql: string, values: Bound[], settle: Callback) => void): DirectRun {
  return (sql, values) =>
    new Promise((resolve, reject) =>
      // mysql2 refuses to bind undefined; TypeORM's runner sends it as NULL, and so does this
      send(sql, (values.includes(undefined) ? values.map((value) => value ?? null) : values) as Bound[], (error, result) =>
        error ? reject(new QueryFailedError(sql, values, error)) : resolve(result),
      ),
    );
}
