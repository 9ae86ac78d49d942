import 'reflect-metadata';

/** Where a write body is used: `create` (save, import: the column default applies) or `change` (update, filters). */
export type WriteUse = 'create' | 'change';

/** What one field declaration (fields.ts) leaves behind for the parts derived from it. */
export interface FieldDeclaration {
  property: string;
  /** Its rules in a write body (validation and OpenAPI); undefined for a server-owned field. */
  write?: (use: WriteUse) => PropertyDecorator;
  /** Never returned and never logged. */
  secret: boolean;
  /** Backed by a column (false: a write-only input that the resource's `toColumns` maps to columns). */
  column: boolean;
  /** Compared exactly (`key: true`): no surrounding whitespace, which MySQL's PAD SPACE would ignore. */
  key?: boolean;
  /** A time that has happened (`Field.time({ past: true })`): writes bound it to now plus the clock-skew allowance. */
  past?: boolean;
}

const FIELDS = Symbol('fields');

export function declareField(prototype: object, declaration: FieldDeclaration): void {
  const own: FieldDeclaration[] = Reflect.getOwnMetadata(FIELDS, prototype) ?? [];
  Reflect.defineMetadata(FIELDS, [...own, declaration], prototype);
  if (declaration.secret) SECRET_NAMES.add(declaration.property);
}

/** The fields of a record class in declaration order, inherited ones first. */
export function fieldsOf(entity: abstract new (...args: never[]) => unknown): FieldDeclaration[] {
  const chain: object[] = [];
  for (let p: object | null = entity.prototype as object; p && p !== Object.prototype; p = Object.getPrototypeOf(p)) chain.unshift(p);
  return chain.flatMap((p) => (Reflect.getOwnMetadata(FIELDS, p) as FieldDeclaration[] | undefined) ?? []);
}

/**
 * Names of every field declared secret in this process. The logger censors them in any logged object
 * or body: a resource's secret is redacted because it is declared, with no list kept beside the logger.
 */
const SECRET_NAMES = new Set<string>();

export function secretFieldNames(): string[] {
  return [...SECRET_NAMES];
}
