import { ExecutionContext, ForbiddenException, Injectable, UnauthorizedException } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AuthGuard } from '@nestjs/passport';
import { Principal, RequestContext } from '../tenancy/request-context';
import { ACCESS_RULE, AccessRule, ADMINISTRATOR_ROLE } from './access';

/** The one global guard: public routes pass, others need a valid token and, where set, the permission. */
@Injectable()
export class AccessGuard extends AuthGuard('jwt') {
  constructor(private readonly reflector: Reflector) {
    super();
  }

  override async canActivate(context: ExecutionContext): Promise<boolean> {
    const rule = this.reflector.getAllAndOverride<AccessRule | undefined>(ACCESS_RULE, [context.getHandler(), context.getClass()]);
    if (!rule) throw new ForbiddenException();
    if (rule.kind === 'public') return true;
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
