import { ExecutionContext, ForbiddenException, Injectable, UnauthorizedException } from '@nestjs/common';
import { GUARDS_METADATA } from '@nestjs/common/constants';
import { Reflector } from '@nestjs/core';
import { AuthGuard } from '@nestjs/passport';
import { Principal, RequestContext } from '../tenancy/request-context';
import { ACCESS_RULE, AccessRule, ADMINISTRATOR_ROLE } from './access';

/**
 * The one global guard: public routes pass, device-token routes go on to their own guard, others need
 * a valid Bearer token and, where set, the permission.
 */
@Injectable()
export class AccessGuard extends AuthGuard('jwt') {
  constructor(private readonly reflector: Reflector) {
    super();
  }

  override async canActivate(context: ExecutionContext): Promise<boolean> {
    const targets = [context.getHandler(), context.getClass()];
    const rule = this.reflector.getAllAndOverride<AccessRule | undefined>(ACCESS_RULE, targets);
    if (!rule) throw new ForbiddenException();
    if (rule.kind === 'public') return true;
    if (rule.kind === 'device-token') {
      // the device token is checked by the route's own guard (DeviceOperation's): declared without one, the route fails closed
      if (!this.reflector.getAllAndMerge<unknown[]>(GUARDS_METADATA, targets).length) throw new ForbiddenException();
      return true;
    }
    await super.canActivate(context);
    const principal = context.switchToHttp().getRequest<{ user: Principal }>().user;
    RequestContext.setPrincipal(principal);
    if (rule.kind === 'permission' && !mayAct(principal, rule.permission)) throw new ForbiddenException();
    return true;
  }

  override handleRequest<T>(error: unknown, user: T): T {
    if (error || !user) throw new UnauthorizedException();
    return user;
  }
}

export function mayAct(principal: Principal, permission: string): boolean {
  return principal.roles.includes(ADMINISTRATOR_ROLE) || principal.permissions.includes(permission);
}
