import { KnownCallers, RequestContext, requiredText } from '@app/common';
import { CanActivate, ExecutionContext, ForbiddenException, Injectable, UnauthorizedException } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import { CallerKind, numberParam } from '../device-api/device-registry';
import { DeviceCaller, DeviceTokenService } from './device-token.service';

export const DEVICE_TOKEN_RULE = 'device-token-rule';

type WithCaller = Request & { deviceCaller?: DeviceCaller };

/**
 * The device group's access check: query `token` must be a valid device token (else 401) of the
 * route's kind and of the number in the query (else 403: a valid token acting for someone else),
 * issued for the number's live record and its current secret (else 401).
 */
@Injectable()
export class DeviceTokenGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly tokens: DeviceTokenService,
    private readonly callers: KnownCallers,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const kind = this.reflector.get<CallerKind | undefined>(DEVICE_TOKEN_RULE, context.getHandler());
    if (!kind) throw new ForbiddenException(); // deny by default: a route without a rule never passes
    const request = context.switchToHttp().getRequest<WithCaller>();
    const token = request.query.token;
    // the token first: an unauthenticated call is a 401 whatever else is wrong with it
    const claims = typeof token === 'string' && token ? this.tokens.verify(token) : undefined;
    if (!claims) throw new UnauthorizedException();
    const param = numberParam(kind);
    const caller = await this.tokens.authenticate(claims, kind, requiredText(request.query[param], param));
    request.deviceCaller = caller;
    // admission sorts this token's next calls into its tenant's share (overload/admission.ts)
    this.callers.remember(token as string, caller.tenantId);
    RequestContext.setIdentity({ tenantId: caller.tenantId, user: `${caller.kind}:${caller.no}` });
    return true;
  }
}

/** The caller proven by DeviceTokenGuard. */
export function callerOf(request: Request): DeviceCaller {
  const caller = (request as WithCaller).deviceCaller;
  if (!caller) throw new UnauthorizedException(); // fails closed if a route ever runs without the guard
  return caller;
}
