import { setTimeout as sleep } from 'node:timers/promises';
import { ClientGoneError } from '../overload/busy';
import { RequestContext } from '../tenancy/request-context';
import { isConcurrentConflictError } from './db-errors';

/** Runs of one write before a conflict is taken for a lasting one (thrown, and then a 503 like a lock timeout). */
export const WRITE_ATTEMPTS = 5;

/**
 * Runs a write (one autocommit statement, or a whole transaction) again when it lost a race with a concurrent one and
 * was rolled back whole: an InnoDB deadlock's victim, a MariaDB Galera transaction that failed certification against a
 * write committed on another node (both ER_LOCK_DEADLOCK, often at COMMIT), or a SQLite transaction whose snapshot
 * another connection's commit made stale. Nothing of the failed run is left, so running it again is safe; what it
 * checked (a revision, a key) it checks again and answers as the other write left things. `alsoRetry` names further
 * errors after which the same holds (an upsert's duplicate key: retryingConcurrentTwins).
 *
 * Only the outermost write may be wrapped: a statement inside a transaction someone else opened cannot be run again
 * alone, since the conflict rolled back that whole transaction. None runs again once the request's client has gone;
 * the short random wait grows with each run, so that writers that collided do not collide again in step.
 */
export async function retryingConflicts<T>(write: () => Promise<T>, alsoRetry: (error: unknown) => boolean = () => false): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await write();
    } catch (error) {
      if (attempt >= WRITE_ATTEMPTS || !(isConcurrentConflictError(error) || alsoRetry(error))) throw error;
      if (RequestContext.ticket()?.gone) throw new ClientGoneError();
      await sleep(Math.random() * 5 * attempt);
    }
  }
}
