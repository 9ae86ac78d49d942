import { ExecutionContext, ForbiddenException, HttpStatus, Injectable } from '@nestjs/common';
import { GUARDS_METADATA } from '@nestjs/common/constants';
import { Reflector } from '@nestjs/core';
import { AuthGuard } from '@nestjs/passport';
import { HttpRefusal } from '../http/app-exception';
import { KnownCallers } from '../overload/known-callers';
import { message } from '../i18n/message';
import { Principal, RequestContext } from '../tenancy/request-context';
import { ACCESS_RULE, AccessRule, ADMINISTRATOR_ROLE } from './access';
import { bearerToken } from './bearer-token';
import { refusalOf, TokenRefusal } from './token-refusal';
import { VerifiedTokens } from './verified-tokens';

/**
 * The one global guard: public routes pass, own-guard routes go on to their own guard, others need
 * a valid Bearer token and, where set, the permission.
 */
@Injectable()
export class AccessGuard extends AuthGuard('jwt') {
  private readonly verified = new VerifiedTokens();

  constructor(
    private readonly reflector: Reflector,
    private readonly callers: KnownCallers,
  ) {
    super();
  }

  override async canActivate(context: ExecutionContext): Promise<boolean> {
    const targets = [context.getHandler(), context.getClass()];
    const rule = this.reflector.getAllAndOverride<AccessRule | undefined>(ACCESS_RULE, targets);
    if (!rule) throw new ForbiddenException();
    if (rule.kind === 'public') return true;
    if (rule.kind === 'own-guard') {
      // the credential is checked by the route's own guard: declared without one, the route fails closed
      if (!this.reflector.getAllAndMerge<unknown[]>(GUARDS_METADATA, targets).length) throw new ForbiddenException();
      return true;
    }
    const principal = await this.authenticate(context);
    RequestContext.setPrincipal(principal);
    if (rule.kind === 'permission' && !mayAct(principal, rule.permission)) throw permissionRefusal(rule.permission);
    return true;
  }

  /** The token's principal: remembered from an earlier verification of the same token, or verified now by passport-jwt. */
  private async authenticate(context: ExecutionContext): Promise<Principal> {
    const request = context.switchToHttp().getRequest<Parameters<typeof bearerToken>[0] & { user?: Principal }>();
    const token = bearerToken(request);
    if (!token) throw request.headers?.authorization ? TokenRefusal.notBearer() : TokenRefusal.missing();
    const principal = this.verified.principal(token) ?? (await this.verify(context, token));
    request.user = principal;
    // admission sorts this token's next requests into its tenant's share (overload/admission.ts)
    this.callers.remember(token, principal.tenantId);
    return principal;
  }

  /** passport-jwt's verification of `token` (the request's), remembered for its next requests. */
  private async verify(context: ExecutionContext, token: string): Promise<Principal> {
    await super.canActivate(context);
    const principal = context.switchToHttp().getRequest<{ user?: Principal }>().user!;
    this.verified.remember(token, principal);
    return principal;
  }

  /** passport-jwt's outcome: the strategy's own refusal (claims), else the verification failure it reports as `info`. */
  override handleRequest<T>(error: unknown, user: T, info: unknown): T {
    if (error instanceof HttpRefusal) throw error;
    if (error || !user) throw refusalOf(error ?? info);
    return user;
  }
}

/** The 403 of a token without the operation's permission: it names the permission, so the caller knows what to ask for. */
export const permissionRefusal = (permission: string): HttpRefusal =>
  new HttpRefusal(HttpStatus.FORBIDDEN, message('Forbidden: needs permission {{permission}}', { permission }));

export function mayAct(principal: Principal, permission: string): boolean {
  return principal.roles.includes(ADMINISTRATOR_ROLE) || principal.permissions.includes(permission);
}
