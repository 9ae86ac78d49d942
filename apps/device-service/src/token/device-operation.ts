import { EnvelopeDoc, Operation } from '@app/common';
import { applyDecorators, createParamDecorator, ExecutionContext, SetMetadata, UseGuards } from '@nestjs/common';
import { ApiQuery, ApiSecurity } from '@nestjs/swagger';
import type { Request } from 'express';
import { CallerKind, numberParam } from '../device-api/device-registry';
import { EXAMPLE_NUMBER } from '../registry/registry-examples';
import { callerOf, DEVICE_TOKEN_RULE, DeviceTokenGuard } from './device-token.guard';

/** OpenAPI security scheme: the device token in query parameter `token`. */
export const DEVICE_TOKEN_SCHEME = 'deviceToken';

export interface DeviceOperationDoc {
  summary: string;
  description?: string;
  response: EnvelopeDoc;
}

/** The route of a kind's token call. */
export const tokenCall = (kind: CallerKind) => `getGenerationTokenKeyByDataAcquisition${kind === 'device' ? 'Device' : 'Server'}No`;

/**
 * A device-group call made by a device or server with its token: no Bearer token (an own-guard
 * operation to the global guard), the device token checked by DeviceTokenGuard, documented as the
 * `deviceToken` scheme.
 */
export function DeviceOperation(kind: CallerKind, doc: DeviceOperationDoc): MethodDecorator {
  const param = numberParam(kind);
  return applyDecorators(
    Operation({
      ...doc,
      ownGuard: true,
      failures: [{ status: 403, when: 'The token belongs to another number or kind.' }],
      credentials: `Requires query parameter \`token\`: a ${kind} token (from ${tokenCall(kind)}) of this \`${param}\`. Missing, invalid, expired, or revoked (secret rotated, record deleted): HTTP 401. A token of another number or of a ${kind === 'device' ? 'server' : 'device'}: HTTP 403.`,
    }),
    SetMetadata(DEVICE_TOKEN_RULE, kind),
    UseGuards(DeviceTokenGuard),
    ApiSecurity(DEVICE_TOKEN_SCHEME),
    ApiQuery({ name: param, required: true, type: String, description: `The calling ${kind}'s number`, example: EXAMPLE_NUMBER[kind] }),
  );
}

/** The device or server proven by the route's token. */
export const Caller = createParamDecorator((_data: unknown, ctx: ExecutionContext) => callerOf(ctx.switchToHttp().getRequest<Request>()));
