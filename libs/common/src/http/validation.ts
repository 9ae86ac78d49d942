import { ArgumentMetadata, Type, ValidationError, ValidationPipe } from '@nestjs/common';
import { AppException } from './app-exception';
import { BodyStatus } from './body-status';
import { cacheValidationMetadata } from './validation-metadata-cache';

cacheValidationMetadata();

/** class-validator rules that mean "wrong type" (1003) rather than "bad value" (400). */
const TYPE_RULES = new Set([
  'isString',
  'isInt',
  'isNumber',
  'isBoolean',
  'isArray',
  'isObject',
  'nestedValidation',
  'whitelistValidation',
  'unknownValue',
]);

function flatten(errors: ValidationError[], prefix = ''): { path: string; rule: string; message: string; absent: boolean }[] {
  return errors.flatMap((e) => {
    const path = prefix ? (/^\d+$/.test(e.property) ? `${prefix}[${e.property}]` : `${prefix}.${e.property}`) : e.property;
    const own = Object.entries(e.constraints ?? {}).map(([rule, message]) => ({
      path,
      rule,
      absent: e.value === undefined || e.value === null,
      message: message.startsWith(e.property) ? path + message.slice(e.property.length) : `${path}: ${message}`,
    }));
    return [...own, ...flatten(e.children ?? [], path)];
  });
}

/** Maps class-validator errors to the envelope: 1003 if a present value has the wrong type, else 400 (missing fields included). */
export function toValidationException(errors: ValidationError[], prefix = ''): AppException {
  const flat = flatten(errors, prefix);
  const typeMismatch = flat.some((f) => TYPE_RULES.has(f.rule) && !f.absent);
  const message = flat.map((f) => f.message).join('; ') || 'Invalid request body';
  return new AppException(typeMismatch ? BodyStatus.TYPE_MISMATCH : BodyStatus.VALIDATION, message);
}

/**
 * A body that must be one JSON object: an array (or a bare value) there is a value of the wrong
 * type (1003), the same answer as an object where an array is expected.
 */
class ObjectBodyValidationPipe extends ValidationPipe {
  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    if (metadata.type === 'body' && value !== undefined && (typeof value !== 'object' || value === null || Array.isArray(value)))
      throw new AppException(BodyStatus.TYPE_MISMATCH, 'Request body must be a JSON object');
    return super.transform(value, metadata);
  }
}

/**
 * The one validation setup. Unknown properties (tenantId, createdTime, ...) are stripped, never
 * trusted; no implicit conversion, so "5" for a number is a type error.
 */
export function validationPipe(expectedType?: Type<unknown>): ValidationPipe {
  return new ObjectBodyValidationPipe({
    expectedType,
    whitelist: true,
    transform: true,
    transformOptions: { enableImplicitConversion: false, exposeDefaultValues: true },
    forbidUnknownValues: true,
    validationError: { target: false, value: true }, // values are read to tell missing from mistyped, never echoed
    exceptionFactory: (errors) => toValidationException(errors),
  });
}
