import { EntityManager, QueryFailedError } from 'typeorm';
import { isMysqlFamily } from '../persistence/upsert-sql';

type Callback = (error: Error | null, result: unknown) => void;
/** mysql2's (callback) pool as TypeORM's MySQL driver holds it. */
interface Mysql2Pool {
  execute(sql: string, values: unknown[], callback: Callback): void;
  query(sql: string, values: unknown[], callback: Callback): void;
}

/** The server's cap on prepared statements (max_prepared_stmt_count, all its clients together) is reached. */
const tooManyPrepared = (error: Error): boolean => (error as { code?: unknown }).code === 'ER_MAX_PREPARED_STMT_COUNT_REACHED';

/** Runs one prepared statement with its values and gives the driver's raw result (rows, or the update's header). */
export type PooledStatement = (sql: string, values: unknown[]) => Promise<unknown>;

/**
 * A statement built once (prepared-finds.ts, prepared-updates.ts) or whose text repeats (a single row's INSERT,
 * TenantTable.insertInRuns) run as a server-side prepared statement on mysql2's pool directly, or undefined where
 * it must take TypeORM's way: SQLite, and any manager inside a transaction (its statements belong to that
 * transaction's connection). TypeORM's query runner costs a tenth of a light request's CPU (a runner object,
 * connect and release, its broadcaster and QueryResult), and mysql2 parses and plans a statement once per
 * connection instead of once per call (each connection keeps its 64 most recent: database.ts). A failure is
 * TypeORM's QueryFailedError around the driver's error, as TypeORM's runner throws it, so the duplicate-key and
 * storage-unavailable mapping and the log lines stay the same.
 */
export function pooledStatement(manager: EntityManager): PooledStatement | undefined {
  if (manager.queryRunner || !isMysqlFamily(manager.connection)) return undefined;
  const pool = (manager.connection.driver as unknown as { pool?: Mysql2Pool }).pool;
  if (!pool) return undefined;
  return (sql, values) =>
    new Promise((resolve, reject) => {
      const settle: Callback = (error, result) => (error ? reject(new QueryFailedError(sql, values, error)) : resolve(result));
      // mysql2 refuses to bind undefined; TypeORM's runner sends it as NULL, and so does this
      const bound = values.includes(undefined) ? values.map((value) => value ?? null) : values;
      // past the server's cap the statement runs unprepared, as TypeORM runs it: slower, but answered
      pool.execute(sql, bound, (error, result) =>
        error && tooManyPrepared(error) ? pool.query(sql, bound, settle) : settle(error, result),
      );
    });
}
