import type { Pool, PoolConnection, RowDataPacket } from 'mysql2';
import { ClientGoneError, ConnectionWaitExpired } from '../overload/busy';
import type { RequestTicket } from '../overload/request-ticket';
import { RequestContext } from '../tenancy/request-context';

export interface RequestConnectionLimits {
  /** Connections requests never hold (DB_POOL_RESERVED): background work and probes keep them. */
  reserved: number;
  /** Longest wait of a request for a connection (ADMISSION_WAIT_MS); then ConnectionWaitExpired. */
  waitMs: number;
  /** What that refusal's Retry-After says. */
  retryAfterSeconds: number;
}

type Acquired = (error: NodeJS.ErrnoException | null, connection: PoolConnection) => unknown;

/** How long a statement of a request whose client left may still run before it is cancelled: most end sooner. */
export const CANCEL_AFTER_MS = 100;
/** Cancellations looked up at once (each takes a connection of the reserve for two short statements). */
const CANCELLING_MAX = 2;

interface Waiter {
  ticket: RequestTicket;
  callback: Acquired;
  deadline: number;
  timer?: NodeJS.Timeout;
}

/**
 * Shares `pool` between requests and everything else (docs/decisions.md "Overload"). A statement of an admitted
 * request (its ticket open) may hold one of the pool's connections less `reserved`, waits for one at most `waitMs`
 * in all (then ConnectionWaitExpired: 503 + Retry-After, not served late), and gets none once its client has gone
 * (ClientGoneError: nothing reaches the database for nobody), and a statement it still runs CANCEL_AFTER_MS after
 * its client left is cancelled (MariaDB's KILL QUERY ID, which names that statement and no later one on the same
 * connection; MySQL has none, and its statement runs on to its deadline). Background work and probes take the pool as it is:
 * the reserve is always theirs. Each connection a request holds is counted until the pool has it back
 * (releaseConnection sees every return, a broken connection's removal included).
 */
export function shareConnections(pool: Pool, limits: RequestConnectionLimits): Pool {
  const max = Math.max(1, Number(pool.config.connectionLimit) - limits.reserved);
  const held = new Map<PoolConnection, RequestTicket>();
  let cancelling = 0;
  /** Request acquisitions under way or held. */
  let granted = 0;
  const waiting: Waiter[] = [];
  const acquire = pool.getConnection.bind(pool);
  const giveBack = pool.releaseConnection.bind(pool);
  const expired = () => new ConnectionWaitExpired(limits.retryAfterSeconds);

  const take = ({ ticket, callback, deadline }: Waiter): void => {
    granted++;
    let settled = false;
    const settle = (error: Error | null, connection?: PoolConnection) => {
      settled = true;
      clearTimeout(timer);
      if (error) {
        granted--;
        next();
        return void callback(error, undefined as never);
      }
      held.set(connection!, ticket);
      ticket.whenGone(() => setTimeout(() => cancelRunning(connection!, ticket), CANCEL_AFTER_MS).unref());
      callback(null, connection!);
    };
    // a pool busy with background work: the request's wait ends at its deadline all the same
    const timer = setTimeout(() => settle(expired()), Math.max(0, deadline - performance.now()));
    acquire((error, connection) => {
      if (settled) return void (error || giveBack(connection)); // came after the deadline: back at once
      if (error) return settle(error);
      if (ticket.gone) {
        giveBack(connection);
        return settle(new ClientGoneError());
      }
      settle(null, connection);
    });
  };

  /** The statement `connection` runs for `ticket`'s gone client, cancelled if it still does (on a connection of the reserve). */
  const cancelRunning = (connection: PoolConnection, ticket: RequestTicket): void => {
    if (held.get(connection) !== ticket || cancelling >= CANCELLING_MAX) return;
    cancelling++;
    acquire((error, admin) => {
      if (error) return void cancelling--;
      const done = () => {
        cancelling--;
        giveBack(admin);
      };
      const running = "SELECT QUERY_ID AS id FROM information_schema.PROCESSLIST WHERE ID = ? AND COMMAND = 'Query'";
      admin.query<RowDataPacket[]>(running, [connection.threadId], (failed, rows) => {
        const id: unknown = failed ? undefined : rows[0]?.id;
        if (id === undefined || held.get(connection) !== ticket) return done();
        admin.query('KILL QUERY ID ?', [id], () => done());
      });
    });
  };

  const next = (): void => {
    while (granted < max && waiting.length) {
      const waiter = waiting.shift()!;
      clearTimeout(waiter.timer);
      if (waiter.ticket.gone) process.nextTick(waiter.callback, new ClientGoneError());
      else take(waiter);
    }
  };

  pool.getConnection = (callback: Acquired) => {
    const ticket = RequestContext.ticket();
    if (!ticket?.open) return acquire(callback);
    if (ticket.gone) return void process.nextTick(callback, new ClientGoneError());
    const waiter: Waiter = { ticket, callback, deadline: performance.now() + limits.waitMs };
    if (granted < max && !waiting.length) return take(waiter);
    waiter.timer = setTimeout(() => {
      waiting.splice(waiting.indexOf(waiter), 1);
      callback(expired(), undefined as never);
    }, limits.waitMs);
    waiting.push(waiter);
  };

  pool.releaseConnection = (connection: PoolConnection) => {
    giveBack(connection);
    if (held.delete(connection)) {
      granted--;
      next();
    }
  };
  return pool;
}
