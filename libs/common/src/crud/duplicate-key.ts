import { AppException } from '../http/app-exception';
import { BodyStatus } from '../http/body-status';
import { isDuplicateKeyError } from '../persistence/db-errors';
import { AnyResource } from './resource';

/** Awaits a write of the resource; a unique-index violation becomes its 422 "<title> exists" instead of a 500. */
export async function refusingDuplicates<T>(resource: AnyResource, write: Promise<T>): Promise<T> {
  try {
    return await write;
  } catch (error) {
    if (isDuplicateKeyError(error)) throw new AppException(BodyStatus.DUPLICATE, resource.duplicateMessage);
    throw error;
  }
}
