import { Type } from '@nestjs/common';
import type { BaseRecord } from '../../persistence/base-record';
import { markCompiledRules } from '../../http/compiled-validation';
import { fieldsOf, WriteUse } from './field-registry';

/** A write body's shape: the record's own fields, each optional (the columns every record has are server-owned). */
export type SaveBody<E> = Partial<Omit<E, keyof BaseRecord>>;

const dtos: Record<WriteUse, WeakMap<Type<object>, Type<object>>> = { create: new WeakMap(), change: new WeakMap() };

/** The write body of one use, from the record's field declarations, in declaration order; one class per entity and use. */
function writeDtoOf<E extends object>(entity: Type<E>, use: WriteUse, name: string): Type<SaveBody<E>> {
  let dto = dtos[use].get(entity);
  if (!dto) {
    const Body = class {};
    Object.defineProperty(Body, 'name', { value: name });
    for (const field of fieldsOf(entity)) field.write?.(use)(Body.prototype, field.property);
    // field rules are class-validator rules alone, all applied here
    dtos[use].set(entity, (dto = markCompiledRules(Body)));
  }
  return dto as Type<SaveBody<E>>;
}

/**
 * The body of save, derived from a record's field declarations: every field that is not server-owned,
 * with its validation and OpenAPI rules (column defaults as `default`); named `<Entity>Save` (its OpenAPI
 * schema). One class per entity, so the resource, its routes and any extension share one schema.
 */
export function saveDtoOf<E extends object>(entity: Type<E>): Type<SaveBody<E>> {
  return writeDtoOf(entity, 'create', `${entity.name}Save`);
}

/**
 * The same fields with the same rules for bodies that change or select records (update, filters): no
 * `default` (a generated client would send it as a value), the create default told in the description.
 * Never a schema of its own: update and filter DTOs are derived from it.
 */
export function changeDtoOf<E extends object>(entity: Type<E>): Type<SaveBody<E>> {
  return writeDtoOf(entity, 'change', `${entity.name}Fields`);
}

/** Columns declared secret: never selected, never returned. */
export function writeOnlyColumnsOf<E extends object>(entity: Type<E>): (keyof E & string)[] {
  return fieldsOf(entity)
    .filter((field) => field.secret && field.column)
    .map((field) => field.property as keyof E & string);
}
