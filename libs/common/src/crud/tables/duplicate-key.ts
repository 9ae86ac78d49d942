import { AppException } from '../../http/app-exception';
import { BodyStatus } from '../../http/body-status';
import { Message, message } from '../../i18n/message';
import { isDuplicateKeyError } from '../../persistence/db-errors';
import { retryingConflicts } from '../../persistence/conflict-retry';
import { AnyResource } from '../fields/resource';

/** The 422 text of the resource, "<title> exists", the title translated as a part of its own. */
export const duplicateOf = (resource: AnyResource): Message => message('{{resource}} exists', { resource: message(resource.title) });

/** Awaits a write of the resource; a unique-index violation becomes its 422 "<title> exists" instead of a 500. */
export async function refusingDuplicates<T>(resource: AnyResource, write: Promise<T>): Promise<T> {
  try {
    return await write;
  } catch (error) {
    if (isDuplicateKeyError(error)) throw new AppException(BodyStatus.DUPLICATE, duplicateOf(resource));
    throw error;
  }
}

/**
 * Runs an upsert transaction (keys read, then new ones inserted and known ones updated) again when it meets its
 * concurrent twin: another transaction that inserted one of the same new keys and committed after this one read
 * them hits the unique index (or, inserting in another order, deadlocks; or, on SQLite, finds its snapshot stale). The next run reads that key as
 * existing and updates it, so concurrent upserts of the same keys all succeed and the last writer's values stay.
 * A conflict that persists (a client identifier another key holds) is thrown after WRITE_ATTEMPTS runs (retryingConflicts).
 */
export function retryingConcurrentTwins<T>(transaction: () => Promise<T>): Promise<T> {
  return retryingConflicts(transaction, isDuplicateKeyError);
}
