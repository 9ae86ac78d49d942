import { applyDecorators, HttpCode, SetMetadata } from '@nestjs/common';
import { ApiBearerAuth, ApiExtension, ApiOkResponse, ApiOperation, ApiProduces } from '@nestjs/swagger';
import { ApiEnvelope, EnvelopeDoc } from '../openapi/api-envelope';
import { ACCESS_RULE, AccessRule } from './access';

export interface OperationDoc {
  summary: string;
  description?: string;
  /** `name:action`; omitted with `public`/`authenticated`. */
  permission?: string;
  public?: boolean;
  /** For a public route protected by other means (e.g. a service's own token): replaces "Anonymous." in the description. */
  publicAccess?: string;
  /** The envelope of the response; omitted only with `raw`. */
  response?: EnvelopeDoc;
  /** A response that is not the envelope (Prometheus metrics): its content type, written by the handler itself. */
  raw?: { contentType: string; description: string };
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
    HttpCode(200), // success is HTTP 200 for every method, POST included (DESIGN §4)
    SetMetadata(ACCESS_RULE, rule),
    ApiOperation({ summary: doc.summary, description: [doc.description, access].filter(Boolean).join('\n\n') }),
    ...(doc.raw
      ? [ApiProduces(doc.raw.contentType), ApiOkResponse({ description: doc.raw.description, content: { [doc.raw.contentType]: { schema: { type: 'string' } } } })]
      : [ApiEnvelope(doc.response!)]),
  ];
  if (rule.kind !== 'public') decorators.push(ApiBearerAuth());
  if (rule.kind === 'permission') decorators.push(ApiExtension('x-permission', rule.permission));
  return applyDecorators(...decorators);
}
