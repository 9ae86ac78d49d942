import { applyDecorators, HttpCode, SetMetadata } from '@nestjs/common';
import { GUARDS_METADATA } from '@nestjs/common/constants';
import { ApiBearerAuth, ApiExtension, ApiOkResponse, ApiOperation, ApiProduces, DECORATORS } from '@nestjs/swagger';
import { ThrottlerGuard } from '@nestjs/throttler';
import { ApiEnvelope, EnvelopeDoc } from '../openapi/api-envelope';
import { Failure, FAILURES_EXTENSION } from '../openapi/failures';
import { ACCESS_RULE, AccessRule } from './access';

export type { Failure } from '../openapi/failures';

export interface OperationDoc {
  summary: string;
  description?: string;
  /** `name:action`; omitted with `public`/`authenticated`. */
  permission?: string;
  public?: boolean;
  /**
   * For a public route protected by other means (e.g. a service's own token or secret): replaces "Anonymous."
   * in the description; such a route answers HTTP 401 when those credentials are missing or wrong.
   */
  publicAccess?: string;
  /**
   * Failures beside the ones the route's shape implies (access rule; body: 400/1003/1004/413; required query
   * parameters: 1002; `revision` in the body: 409; storage: 503): e.g. 422 on a business key, 429 on a limit.
   */
  failures?: Failure[];
  /** The envelope of the response; omitted only with `raw`. */
  response?: EnvelopeDoc;
  /** A response that is not the envelope (Prometheus metrics): its content type, written by the handler itself. */
  raw?: { contentType: string; description: string };
}

/** What the access rule answers before the handler runs (documented by setupOpenApi with the other failures). */
function accessFailures(rule: AccessRule, doc: OperationDoc): Failure[] {
  if (rule.kind === 'public') return doc.publicAccess ? [{ status: 401, when: 'The credentials described above are missing or wrong.' }] : [];
  const unauthenticated: Failure = { status: 401, when: 'No Bearer token, or an invalid or expired one.' };
  if (rule.kind === 'authenticated') return [unauthenticated];
  return [unauthenticated, { status: 403, when: `The token has neither role \`administrator\` nor permission \`${rule.permission}\`.` }];
}

/** One decorator per route: access rule, OpenAPI operation (with `x-permission`) and typed envelope. */
export function Operation(doc: OperationDoc): MethodDecorator {
  const rule: AccessRule = doc.public
    ? { kind: 'public' }
    : doc.permission
      ? { kind: 'permission', permission: doc.permission }
      : { kind: 'authenticated' };
  const access =
    rule.kind === 'permission'
      ? `Requires role \`administrator\` or permission \`${rule.permission}\`.`
      : rule.kind === 'public'
        ? (doc.publicAccess ?? 'Anonymous.')
        : 'Requires any valid Bearer token.';
  const decorators = [
    HttpCode(200), // success is HTTP 200 for every method, POST included
    SetMetadata(ACCESS_RULE, rule),
    ApiOperation({ summary: doc.summary, description: [doc.description, access].filter(Boolean).join('\n\n') }),
    ...(doc.raw
      ? [ApiProduces(doc.raw.contentType), ApiOkResponse({ description: doc.raw.description, content: { [doc.raw.contentType]: { schema: { type: 'string' } } } })]
      : [ApiEnvelope(doc.response!)]),
  ];
  decorators.push(ApiExtension(FAILURES_EXTENSION, [...accessFailures(rule, doc), ...(doc.failures ?? [])]));
  if (rule.kind !== 'public') decorators.push(ApiBearerAuth());
  if (rule.kind === 'permission') decorators.push(ApiExtension('x-permission', rule.permission));
  const apply = applyDecorators(...decorators);
  return (target, key, descriptor) => {
    apply(target, key, descriptor);
    HANDLERS.add(descriptor.value as object);
  };
}

/** Handlers of every `Operation`: failures implied by decorators applied after it (guards) are added once all have run. */
const HANDLERS = new Set<object>();

const THROTTLED: Failure = { status: 429, when: 'Too many calls from this client address within the window; wait and retry.' };
const isThrottler = (guard: unknown) => guard === ThrottlerGuard || guard instanceof ThrottlerGuard || (typeof guard === 'function' && guard.prototype instanceof ThrottlerGuard);

/** Adds the failures of route guards (a rate limit: 429) to the operations' documented failures; idempotent. */
export function documentGuardFailures(): void {
  for (const handler of HANDLERS) {
    const guards: unknown[] = Reflect.getMetadata(GUARDS_METADATA, handler) ?? [];
    const failures: Failure[] | undefined = (Reflect.getMetadata(DECORATORS.API_EXTENSION, handler) as Record<string, Failure[]> | undefined)?.[FAILURES_EXTENSION];
    if (failures && guards.some(isThrottler) && !failures.some((f) => f.status === THROTTLED.status)) failures.push(THROTTLED);
  }
}
