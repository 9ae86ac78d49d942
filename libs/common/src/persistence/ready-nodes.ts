import type { Pool, PoolConnection, RowDataPacket } from 'mysql2';
import { GaleraNodes, notReadyReason, READINESS_SQL, statusOf } from './galera-nodes';

type Acquired = (error: NodeJS.ErrnoException | null, connection: PoolConnection) => unknown;

/**
 * Hands out only connections to a ready node (DB_HOSTS, galera-nodes.ts): a connection is checked (the readiness
 * statements, on itself) when it is new and again once after each change of the nodes' ready set; one whose node is
 * not ready is closed, its node marked, and another is taken, at most once per node, so a request never runs a
 * statement on a node that would refuse it (1047) or serve stale data. Between changes a handed-out connection
 * costs nothing more. Ending the pool ends the nodes' probes.
 */
const nodesOfPool = new WeakMap<Pool, GaleraNodes>();

/** The Galera nodes a pool connects to (DB_HOSTS), for the metrics; undefined without DB_HOSTS. */
export const galeraNodesOf = (pool: Pool): GaleraNodes | undefined => nodesOfPool.get(pool);

export function onReadyNodes(pool: Pool, nodes: GaleraNodes): Pool {
  nodesOfPool.set(pool, nodes);
  const checked = new WeakMap<PoolConnection, number>();
  /** The node of each connection, as it told its own address when checked. */
  const nodeOf = new WeakMap<PoolConnection, string>();
  const acquire = pool.getConnection.bind(pool);

  const check = (connection: PoolConnection, done: (reason: string | undefined) => void): void => {
    const rows: RowDataPacket[] = [];
    let pending = READINESS_SQL.length;
    let failed: string | undefined;
    for (const sql of READINESS_SQL)
      connection.query<RowDataPacket[]>(sql, (error, result) => {
        if (error) failed = `no answer (${error.code ?? error.message})`;
        else rows.push(...result);
        if (--pending === 0) done(failed ?? notReadyReason(statusOf(rows)));
      });
  };

  const take = (callback: Acquired, triesLeft: number): void =>
    acquire((error, connection) => {
      if (error) return callback(error, connection);
      const generation = nodes.generation;
      if (checked.get(connection) === generation) return callback(null, connection);
      check(connection, (reason) => {
        if (reason === undefined) {
          checked.set(connection, generation);
          nodeOf.set(connection, nodes.current());
          return callback(null, connection);
        }
        // the node this connection reaches, by what it was when made (the node in use then)
        nodes.mark(nodeOf.get(connection) ?? nodes.current(), reason);
        connection.destroy();
        if (triesLeft > 0) return take(callback, triesLeft - 1);
        callback(
          Object.assign(new Error(`no database node of DB_HOSTS is ready: ${reason}`), { code: 'ECONNREFUSED' }),
          undefined as never,
        );
      });
    });

  pool.getConnection = (callback: Acquired) => take(callback, nodes.nodes.length);
  // the probes end with the pool (the data source destroyed, the service stopped)
  const end = pool.end.bind(pool);
  pool.end = ((callback?: (error: NodeJS.ErrnoException | null) => void) => {
    void nodes.stop();
    return end(callback as never);
  }) as typeof pool.end;
  return pool;
}
