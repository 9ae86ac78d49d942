import * as mysql2 from 'mysql2';
import type { Pool, PoolConnection, PoolOptions, RowDataPacket } from 'mysql2';
import { RequestConnectionLimits, shareConnections } from './request-connections';
import type { GaleraNodes } from './galera-nodes';
import { onReadyNodes } from './ready-nodes';

/**
 * The statement that bounds every later statement of a session to `ms`, in the server's own terms: MariaDB's
 * max_statement_time (seconds, any statement) or MySQL's max_execution_time (milliseconds, read-only SELECTs only).
 * `serverVersion` is the server's VERSION(): MariaDB's always names MariaDB.
 */
export function statementDeadlineSql(serverVersion: string, ms: number, galera = false): string {
  if (!/mariadb/i.test(serverVersion)) return `SET SESSION max_execution_time = ${ms}`;
  const deadline = `max_statement_time = ${(ms / 1000).toFixed(3)}`;
  return galera ? `SET SESSION ${deadline}, ${READ_YOUR_WRITES}` : `SET SESSION ${deadline}`;
}

/**
 * On a Galera node, reads, updates and deletes first wait until the node has applied every write the cluster had
 * committed when they started (wsrep_sync_wait bits 1 and 2): a request sees what an earlier request wrote through
 * another node, as it would on one server. Inserts do not wait (bit 4 off): the keys they check are unique cluster-wide
 * by certification.
 */
const READ_YOUR_WRITES = 'wsrep_sync_wait = 3';

type Acquired = (error: NodeJS.ErrnoException | null, connection: PoolConnection) => unknown;

/**
 * Gives every connection of `pool` a server-side deadline of `ms` on each statement before anyone gets it: the first
 * time a connection is handed out, its session deadline is set (the server's flavour read once per pool), and only
 * then is it passed on. Everything the pool runs takes getConnection: TypeORM's query runners and the pool's own
 * query and execute (the prepared statements of sql/run-statement.ts). A connection whose deadline cannot
 * be set is closed and its caller gets that error, so no statement ever runs on a connection without it.
 */
export function boundStatements(pool: Pool, ms: number): Pool {
  const bounded = new WeakSet<PoolConnection>();
  /** The SET statement, once a connection told the server's version. */
  let setting: string | undefined;
  const bound = (connection: PoolConnection, done: (error: Error | null) => void): void => {
    const set = (sql: string) => connection.query(sql, (error) => done(error));
    if (setting) return void set(setting);
    connection.query<RowDataPacket[]>('SELECT VERSION() AS version', (error, rows) => {
      if (error) return done(error);
      const version = String(rows[0]?.version);
      // a Galera node: wsrep_on ON (MySQL has no such variable; a MariaDB that is no Galera node has it OFF)
      connection.query<RowDataPacket[]>("SHOW GLOBAL VARIABLES LIKE 'wsrep_on'", (failed, variables) => {
        if (failed) return done(failed);
        set((setting = statementDeadlineSql(version, ms, String(variables[0]?.Value).toUpperCase() === 'ON')));
      });
    });
  };
  const acquire = pool.getConnection.bind(pool);
  pool.getConnection = (callback: Acquired) =>
    acquire((error, connection) => {
      if (error || bounded.has(connection)) return callback(error, connection);
      bound(connection, (failure) => {
        if (!failure) {
          bounded.add(connection);
          return callback(null, connection);
        }
        connection.destroy();
        callback(failure, undefined as never);
      });
    });
  return pool;
}

/**
 * mysql2 as TypeORM's MySQL driver loads it (its `driver` option), with every pool it creates bounded by
 * boundStatements (the pool's connections get their deadline before TypeORM's first statement) and, given
 * `requests`, shared by shareConnections (requests wait for a connection a bounded time and leave the reserve), and,
 * given `nodes` (DB_HOSTS), connected to the node in use and handing out connections to ready nodes only (onReadyNodes).
 */
export function mysql2WithStatementDeadline(ms: number, requests?: RequestConnectionLimits, nodes?: GaleraNodes): typeof mysql2 {
  const made = (options: PoolOptions): Pool => {
    // with DB_HOSTS: each new connection to the node in use, and only connections to ready nodes handed out
    const bounded = boundStatements(mysql2.createPool(nodes ? { ...options, stream: () => nodes.socket() } : options), ms);
    const pool = nodes ? onReadyNodes(bounded, nodes) : bounded;
    return requests ? shareConnections(pool, requests) : pool;
  };
  return Object.create(mysql2, { createPool: { value: made } }) as typeof mysql2;
}
