import { Type } from '@nestjs/common';
import type { BaseRecord } from '../persistence/base-record';
import { fieldsOf } from './field-registry';

/** A write body's shape: the record's own fields, each optional (the columns every record has are server-owned). */
export type SaveBody<E> = Partial<Omit<E, keyof BaseRecord>>;

const saveDtos = new WeakMap<Type<object>, Type<object>>();

/**
 * The body of save, derived from a record's field declarations: every field that is not server-owned,
 * with its validation and OpenAPI rules, in declaration order; named `<Entity>Save` (its OpenAPI schema).
 * One class per entity, so the resource, its routes and any extension share one schema.
 */
export function saveDtoOf<E extends object>(entity: Type<E>): Type<SaveBody<E>> {
  let dto = saveDtos.get(entity);
  if (!dto) {
    const Save = class {};
    Object.defineProperty(Save, 'name', { value: `${entity.name}Save` });
    for (const field of fieldsOf(entity)) field.write?.()(Save.prototype, field.property);
    saveDtos.set(entity, (dto = Save));
  }
  return dto as Type<SaveBody<E>>;
}

/** Columns declared secret: never selected, never returned. */
export function writeOnlyColumnsOf<E extends object>(entity: Type<E>): (keyof E & string)[] {
  return fieldsOf(entity)
    .filter((field) => field.secret && field.column)
    .map((field) => field.property as keyof E & string);
}
