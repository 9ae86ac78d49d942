import { AppException } from '../../http/app-exception';
import { BodyStatus } from '../../http/body-status';
import { Message, message } from '../../i18n/message';
import { isDuplicateKeyError } from '../../persistence/db-errors';
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
