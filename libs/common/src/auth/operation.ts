import { applyDecorators, HttpCode, SetMetadata } from '@nestjs/common';
import { GUARDS_METADATA } from '@nestjs/common/constants';
import { ApiBearerAuth, ApiExtension, ApiOkResponse, ApiOperation, ApiProduces, DECORATORS } from '@nestjs/swagger';
import { ThrottlerGuard } from '@nestjs/throttler';
import { BODY_LIMIT } from '../http/request-body';
import { ApiEnvelope, EnvelopeDoc } from '../openapi/api-envelope';
import { Failure, FAILURES_EXTENSION } from '../openapi/failures';
import { ACCESS_RULE, AccessRule } from './access';
import { permissionRefusal } from './access.guard';
import { TokenRefusal } from './token-refusal';

/**
 * One operation's declaration. Who may call it (the access rule AccessGuard applies, the access sentence
 * of the description, the access failures and the Bearer security requirement all follow from it): a Bearer
 * token by default (with `permission`, that permission or role administrator); `public`: anyone;
 * `ownGuard`: another credential, which the route's own guard checks.
 */
export interface OperationDoc {
  summary: string;
  description?: string;
  /** `name:action`; omitted with `public`/`ownGuard` and for any valid Bearer token. */
  permission?: string;
  /** Anonymous: no Bearer token, every caller passes AccessGuard. */
  public?: boolean;
  /** No Bearer token: the caller presents another credential, which the route's own guard (the app's) checks; needs `credentials`. */
  ownGuard?: boolean;
  /**
   * What the caller presents instead of a Bearer token (a secret a public route checks itself, the credential an
   * `ownGuard` route's guard checks): the access sentence; the route answers HTTP 401 when it is missing or wrong.
   */
  credentials?: string;
  /**
   * Failures beside the ones the route's shape implies (access rule; body: 400/1003/1004/413; required query
   * parameters: 1002; `revision` in the body: 409; storage: 503): e.g. 422 on a business key, 429 on a limit.
   */
  failures?: Failure[];
  /** The envelope of the response; omitted only with `raw`. */
  response?: EnvelopeDoc;
  /**
   * A response that is not the envelope (Prometheus metrics, a translation bundle, an export's file): its content
   * type (or types, by Accept), written by the handler itself, and its schema (namedAnswerSchema's reference; default: text).
   */
  raw?: { contentType: string | string[]; description: string; schema?: { $ref: string } };
  /** Largest body, after any Content-Encoding is undone (`'16mb'`, `'64kb'`); DEFAULT_BODY_LIMIT when omitted. */
  bodyLimit?: string;
}

/** A raw answer's media types: one, or one per format the handler writes (chosen by Accept). */
const mediaTypes = (contentType: string | string[]): string[] => (Array.isArray(contentType) ? contentType : [contentType]);

function accessRule(doc: OperationDoc): AccessRule {
  if (doc.public && doc.ownGuard) throw new Error(`Operation "${doc.summary}": public or ownGuard, not both`);
  if (doc.ownGuard && !doc.credentials)
    throw new Error(`Operation "${doc.summary}": ownGuard needs credentials (what the caller presents)`);
  if (doc.public) return { kind: 'public' };
  if (doc.ownGuard) return { kind: 'own-guard' };
  return doc.permission ? { kind: 'permission', permission: doc.permission } : { kind: 'authenticated' };
}

/** The description's sentence on who may call. */
function accessSentence(rule: AccessRule, doc: OperationDoc): string {
  switch (rule.kind) {
    case 'public':
      return doc.credentials ?? 'Anonymous.';
    case 'own-guard':
      return doc.credentials!;
    case 'authenticated':
      return 'Requires any valid Bearer token.';
    case 'permission':
      return `Requires role \`administrator\` or permission \`${rule.permission}\`.`;
  }
}

/** What the access rule answers before the handler runs (documented by setupOpenApi with the other failures). */
function accessFailures(rule: AccessRule, doc: OperationDoc): Failure[] {
  const unproven: Failure = { status: 401, when: 'The credentials described above are missing or wrong.' };
  if (rule.kind === 'public') return doc.credentials ? [unproven] : [];
  if (rule.kind === 'own-guard') return [unproven];
  const unauthenticated: Failure = {
    status: 401,
    when: 'No Bearer token, or an invalid or expired one; `error` says which.',
    error: TokenRefusal.missing().message,
  };
  if (rule.kind === 'authenticated') return [unauthenticated];
  return [
    unauthenticated,
    {
      status: 403,
      when: `The token has neither role \`administrator\` nor permission \`${rule.permission}\`.`,
      error: permissionRefusal(rule.permission).message,
    },
  ];
}

/** One decorator per route: access rule, OpenAPI operation (with `x-permission`) and typed envelope. */
export function Operation(doc: OperationDoc): MethodDecorator {
  const rule = accessRule(doc);
  const access = accessSentence(rule, doc);
  const decorators = [
    HttpCode(200), // success is HTTP 200 for every method, POST included
    SetMetadata(ACCESS_RULE, rule),
    ApiOperation({ summary: doc.summary, description: [doc.description, access].filter(Boolean).join('\n\n') }),
    ...(doc.raw
      ? [
          ApiProduces(...mediaTypes(doc.raw.contentType)),
          ApiOkResponse({
            description: doc.raw.description,
            content: Object.fromEntries(
              mediaTypes(doc.raw.contentType).map((type) => [type, { schema: doc.raw!.schema ?? { type: 'string' } }]),
            ),
          }),
        ]
      : [ApiEnvelope(doc.response!)]),
  ];
  decorators.push(ApiExtension(FAILURES_EXTENSION, [...accessFailures(rule, doc), ...(doc.failures ?? [])]));
  if (doc.bodyLimit) decorators.push(SetMetadata(BODY_LIMIT, doc.bodyLimit));
  if (rule.kind === 'authenticated' || rule.kind === 'permission') decorators.push(ApiBearerAuth());
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
const isThrottler = (guard: unknown) =>
  guard === ThrottlerGuard || guard instanceof ThrottlerGuard || (typeof guard === 'function' && guard.prototype instanceof ThrottlerGuard);

/** Adds the failures of route guards (a rate limit: 429) to the operations' documented failures; idempotent. */
export function documentGuardFailures(): void {
  for (const handler of HANDLERS) {
    const guards: unknown[] = Reflect.getMetadata(GUARDS_METADATA, handler) ?? [];
    const failures: Failure[] | undefined = (
      Reflect.getMetadata(DECORATORS.API_EXTENSION, handler) as Record<string, Failure[]> | undefined
    )?.[FAILURES_EXTENSION];
    if (failures && guards.some(isThrottler) && !failures.some((f) => f.status === THROTTLED.status)) failures.push(THROTTLED);
  }
}
