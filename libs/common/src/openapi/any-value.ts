import type { ApiPropertyOptions } from '@nestjs/swagger';

const MARK = 'x-any-value';

/**
 * Spread into an ApiProperty's options for a property that holds any JSON value (a history entry's old and new
 * values): Nest would type an `unknown` property `object`, so finaliseDocument takes the type away (a schema without
 * a type allows every value, and generators make it their any type, Java's `Object`).
 */
export const ANY_VALUE = { [MARK]: true } as unknown as ApiPropertyOptions;

/** Every schema marked ANY_VALUE left untyped, its mark removed. */
export function untypeAnyValues(node: unknown): void {
  if (!node || typeof node !== 'object') return;
  if (Array.isArray(node)) return node.forEach(untypeAnyValues);
  const schema = node as Record<string, unknown>;
  if (schema[MARK] === true) {
    delete schema[MARK];
    delete schema.type;
  }
  for (const value of Object.values(schema)) untypeAnyValues(value);
}
