import { EntityManager, QueryFailedError, QueryRunner } from 'typeorm';
import { isMysqlFamily } from '../persistence/upsert-sql';

type Callback = (error: Error | null, result: unknown) => void;
/** mysql2's (callback) pool as TypeORM's MySQL driver holds it, or one of its connections. */
interface Mysql2Pool {
  execute(sql: string, values: unknown[], callback: Callback): void;
  query(sql: string, values: unknown[], callback: Callback): void;
}

/** The server's cap on prepared statements (max_prepared_stmt_count, all its clients together) is reached. */
const tooManyPrepared = (error: Error): boolean => (error as { code?: unknown }).code === 'ER_MAX_PREPARED_STMT_COUNT_REACHED';

/** Runs one statement with its values and gives the driver's raw result (rows, or the update's header). */
export type PooledStatement = (sql: string, values: unknown[]) => Promise<unknown>;

/**
 * A statement built once (prepared-finds.ts, prepared-updates.ts) or whose text repeats (a single row's INSERT,
 * TenantTable.insertInRuns) run by mysql2 directly, past TypeORM's query runner, which costs a tenth of a light
 * request's CPU (a runner object, connect and release, its broadcaster and QueryResult):
 * - outside a transaction, as a server-side prepared statement on the pool: mysql2 parses and plans it once per
 *   connection instead of once per call (each connection keeps its 64 most recent: database.ts);
 * - inside one (a manager of a query runner), on the connection the runner holds, where its statements belong, as
 *   the runner sends them: text with the values written in, seen by TypeORM's query log hooks (MariaDB plans a
 *   first page's deferred join and count with written-in values for less of its CPU than the same statements
 *   prepared).
 * Undefined where it must take TypeORM's way: SQLite, and a runner that holds no connection (yet, or any more).
 * A failure is TypeORM's QueryFailedError around the driver's error, as TypeORM's runner throws it, so the
 * duplicate-key and storage-unavailable mapping and the log lines stay the same.
 */
export function pooledStatement(manager: EntityManager): PooledStatement | undefined {
  if (!isMysqlFamily(manager.connection)) return undefined;
  const runner = manager.queryRunner;
  if (runner) {
    const held = heldConnection(runner);
    const { logger } = manager.connection;
    // through TypeORM's query log hooks, as the runner sends a transaction's statements
    return (
      held &&
      settled((sql, values, settle) => {
        logger.logQuery(sql, values, runner);
        held.query(sql, values, (error, result) => {
          if (error) logger.logQueryError(error, sql, values, runner);
          settle(error, result);
        });
      })
    );
  }
  const pool = (manager.connection.driver as unknown as { pool?: Mysql2Pool }).pool;
  return (
    pool &&
    settled((sql, values, settle) =>
      // past the server's cap the statement runs unprepared, as TypeORM runs it: slower, but answered
      pool.execute(sql, values, (error, result) =>
        error && tooManyPrepared(error) ? pool.query(sql, values, settle) : settle(error, result),
      ),
    )
  );
}

/** `send` as a PooledStatement: undefined values bound as NULL, a failure as TypeORM's QueryFailedError. */
function settled(send: (sql: string, values: unknown[], settle: Callback) => void): PooledStatement {
  return (sql, values) =>
    new Promise((resolve, reject) =>
      // mysql2 refuses to bind undefined; TypeORM's runner sends it as NULL, and so does this
      send(sql, values.includes(undefined) ? values.map((value) => value ?? null) : values, (error, result) =>
        error ? reject(new QueryFailedError(sql, values, error)) : resolve(result),
      ),
    );
}

/** The mysql2 connection a query runner holds (a transaction's), or undefined before it holds one or once released. */
function heldConnection(runner: QueryRunner): Mysql2Pool | undefined {
  return runner.isReleased ? undefined : (runner as unknown as { databaseConnection?: Mysql2Pool }).databaseConnection;
}
