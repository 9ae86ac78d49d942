import { HttpException, ServiceUnavailableException } from '@nestjs/common';
import { Message, message, renderAll } from '../i18n/message';
import { BodyStatus } from './body-status';

/** A text without parameters is its own template. */
const partsOf = (text: string | Message | readonly Message[]): readonly Message[] =>
  typeof text === 'string' ? [message(text)] : Array.isArray(text) ? text : [text as Message];

/** A property that failed validation and the rule it broke, by name: what the request's log line says of a refusal. */
export interface RefusedProperty {
  property: string;
  rule: string;
}

/**
 * A business or validation failure: HTTP 200 with `status` in the body (contract.md "The envelope").
 * `parts` are its clauses, translated one by one for `localizedError`; `message` is their English text;
 * `refused` names the failing properties and rules of a validation failure (never their values).
 */
export class AppException extends Error {
  readonly parts: readonly Message[];

  constructor(
    readonly bodyStatus: number,
    text: string | Message | readonly Message[],
    readonly refused: readonly RefusedProperty[] = [],
  ) {
    const parts = partsOf(text);
    super(renderAll(parts));
    this.parts = parts;
    this.name = 'AppException';
  }

  static validation(text: string | Message | readonly Message[], refused: readonly RefusedProperty[] = []): AppException {
    return new AppException(BodyStatus.VALIDATION, text, refused);
  }
}

/** A refusal with its HTTP status (401, 403, ...) whose text says why, translated like the others. */
export class HttpRefusal extends HttpException {
  readonly parts: readonly Message[];

  /** `logHint`: for the operator, on the request's log line (`hint`), never in the answer. */
  constructor(
    status: number,
    text: string | Message,
    readonly logHint?: string,
  ) {
    const parts = partsOf(text);
    super(renderAll(parts), status);
    this.parts = parts;
  }
}

/** HTTP 503 (body status 503) whose envelope says what is unavailable in `extraData` (readiness). */
export class UnavailableException extends ServiceUnavailableException {
  constructor(readonly extraData: Record<string, unknown>) {
    super('Service unavailable');
  }
}
