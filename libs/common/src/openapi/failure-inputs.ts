import { INestApplication, Type } from '@nestjs/common';
import { ModulesContainer } from '@nestjs/core';
import { DECORATORS } from '@nestjs/swagger';
import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { sanitizeSmallBody } from '../http/body-sanitizer';
import { BodyStatus } from '../http/body-status';
import { toValidationException } from '../http/validation';
import type { Failure } from './failures';
import { propertiesOf, resolveRef, sampleOf } from './sample';

// an OpenAPI document is walked as plain JSON
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;

/** The extension of a failure example that states its input (what a client sends to get exactly that answer). */
export const INPUT_EXTENSION = 'x-input';

/** The body classes of the app's routes by schema name (the name Nest gives their OpenAPI schema). */
export function bodyClassesOf(app: INestApplication): Map<string, Type<object>> {
  const classes = new Map<string, Type<object>>();
  for (const module of app.get(ModulesContainer, { strict: false }).values())
    for (const { metatype } of module.controllers.values()) {
      for (
        let proto = (metatype as Type<object> | null)?.prototype;
        proto && proto !== Object.prototype;
        proto = Object.getPrototypeOf(proto)
      )
        for (const key of Object.getOwnPropertyNames(proto)) {
          const handler = Object.getOwnPropertyDescriptor(proto, key)?.value as object | undefined;
          if (typeof handler !== 'function') continue;
          const params: Json[] = Reflect.getMetadata(DECORATORS.API_PARAMETERS, handler) ?? [];
          for (const p of params.filter((x) => x.in === 'body')) {
            const type = Array.isArray(p.type) ? p.type[0] : p.type;
            if (typeof type === 'function' && type.name) classes.set(type.name, type as Type<object>);
          }
        }
    }
  return classes;
}

/** What the service answers for a body of this class: the route's validation (a row of an array body: the batch validation). */
function answerOf(dto: Type<object>, sent: Json, row: boolean): { status: number; error: string } | undefined {
  const body = structuredClone(sent);
  sanitizeSmallBody(body); // as every request body is, before validation (null: not given); a sample is a few values
  const errors = validateSync(plainToInstance(dto, body, { enableImplicitConversion: false }), {
    whitelist: true,
    forbidUnknownValues: true,
    validationError: { target: true, value: true }, // as the service validates: the target finds a rule's constraints
  });
  if (!errors.length) return undefined;
  const failure = toValidationException(errors, row ? '[0]' : '');
  // all-or-nothing batches answer every bad row with 400 (validateAllRows)
  return { status: row ? BodyStatus.VALIDATION : failure.bodyStatus, error: failure.message };
}

/** A value of the property's type that breaks one of its value rules (400), or undefined when it has none to break. */
function breaking(s: Json): unknown {
  if (Array.isArray(s.enum)) return 'NOT_LISTED';
  if (s.type === 'integer' || s.type === 'number') {
    if (s.minimum !== undefined) return s.minimum - 1;
    if (s.maximum !== undefined) return s.maximum + 1;
  }
  if (s.type === 'string' && s.maxLength !== undefined && s.maxLength <= 64) return 'x'.repeat(s.maxLength + 1);
  if (s.type === 'string' && s.pattern) return '!';
  return undefined;
}

/** A value of another JSON type (1003). */
const mistyped = (s: Json): unknown => (s.type === 'string' ? 1 : s.type === 'array' || s.type === 'object' ? 'x' : 'x1');

/**
 * The 400 and 1003 failures of an operation's JSON body, each with an input taken from the body's own
 * fields and the text the route's validation answers for it: the request example with one field changed.
 */
export function bodyFailureExamples(document: Json, schema: Json, classes: Map<string, Type<object>>): Failure[] {
  const resolved = resolveRef(document, schema);
  const row = resolved.type === 'array';
  const target = row ? resolved.items : schema;
  const dto = classes.get(
    String(target?.$ref ?? '')
      .split('/')
      .pop()!,
  );
  if (!dto) return [];
  const example = sampleOf(document, target) as Json;
  if (answerOf(dto, example, row)) return []; // the example itself must pass, or no single change explains the answer
  const properties: [string, Json][] = Object.entries(propertiesOf(document, target));
  const failures: Failure[] = [];
  const pick = (status: number, value: (s: Json) => unknown) => {
    for (const [name, property] of properties) {
      const changed = value(property);
      if (changed === undefined) continue;
      const answer = answerOf(dto, { ...example, [name]: changed }, row);
      if (answer?.status === status) return { set: { [name]: changed }, ...answer };
    }
    return undefined;
  };
  const invalid = pick(BodyStatus.VALIDATION, breaking);
  if (invalid)
    failures.push({
      status: 400,
      when: 'A field breaks its rule; `error` names each failing field and rule.',
      error: invalid.error,
      input: { set: row ? undefined : invalid.set, body: row ? [{ ...example, ...invalid.set }] : undefined },
    });
  const wrongType = row ? undefined : pick(BodyStatus.TYPE_MISMATCH, mistyped);
  if (wrongType)
    failures.push({
      status: 1003,
      when: 'A value has the wrong JSON type (e.g. a string for a number, an array for an object).',
      error: wrongType.error,
      input: { set: wrongType.set },
    });
  if (row)
    failures.push({
      status: 1003,
      when: 'The body is not a JSON array of objects.',
      error: 'Request body must be a JSON array of objects',
      input: { body: example },
    });
  return failures;
}
