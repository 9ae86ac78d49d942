import { ArgumentMetadata, Type, ValidationError, ValidationPipe } from '@nestjs/common';
import { AppException } from './app-exception';
import { BodyStatus } from './body-status';
import { keepConstraintInstances } from './constraint-instances';
import { acceptedBody } from './compiled-validation';
import { REQUIRED_TEMPLATE, TYPE_RULES, validationClauses } from './validation-clauses';

/**
 * Maps class-validator errors to the envelope: one clause per failing property (validationClauses);
 * 1003 if a present value has the wrong type, else 400 (missing fields included).
 */
export function toValidationException(errors: ValidationError[], prefix = ''): AppException {
  const clauses = validationClauses(errors, prefix);
  const typeMismatch = clauses.some((c) => TYPE_RULES.has(c.rule) && !c.absent);
  const parts = clauses.length ? clauses.map((c) => c.message) : 'Invalid request body';
  // the rule as the clause names it: a missing property is `required`, whatever rule its absence broke first
  const refused = clauses.map((c) => ({ property: c.path, rule: c.message.template === REQUIRED_TEMPLATE ? 'required' : c.rule }));
  return new AppException(typeMismatch ? BodyStatus.TYPE_MISMATCH : BodyStatus.VALIDATION, parts, refused);
}

/**
 * A body that must be one JSON object: an array (or a bare value) there is a value of the wrong
 * type (1003), the same answer as an object where an array is expected. A body of a class with compiled rules
 * (compiled-validation.ts) that passes them is accepted by them; any other goes through class-transformer and
 * class-validator, which also word every refusal.
 */
class ObjectBodyValidationPipe extends ValidationPipe {
  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    if (value !== undefined && (typeof value !== 'object' || value === null || Array.isArray(value)))
      throw new AppException(BodyStatus.TYPE_MISMATCH, 'Request body must be a JSON object');
    const type = this.expectedType ?? metadata.metatype;
    if (type && this.toValidate({ ...metadata, metatype: type })) {
      const accepted = acceptedBody(type as new () => object, value);
      if (accepted) return accepted;
    }
    return super.transform(value, metadata);
  }
}

/**
 * The one validation setup of a request body. Unknown properties (tenantId, createdTime, ...) are stripped, never
 * trusted; no implicit conversion, so "5" for a number is a type error.
 */
export function validationPipe(expectedType?: Type<unknown>): ValidationPipe {
  keepConstraintInstances();
  return new ObjectBodyValidationPipe({
    expectedType,
    // the body is a project decorator's parameter (RequestBody), which Nest calls custom
    validateCustomDecorators: true,
    whitelist: true,
    transform: true,
    transformOptions: { enableImplicitConversion: false, exposeDefaultValues: true },
    forbidUnknownValues: true,
    // values tell missing from mistyped, the target's class finds a rule's constraints; neither is ever echoed
    validationError: { target: true, value: true },
    exceptionFactory: (errors) => toValidationException(errors),
  });
}
