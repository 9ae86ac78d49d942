/**
 * The access kinds of Operation as the global guard applies them: no rule is refused, a public route
 * passes, an own-guard route passes to its own guard only when it has one, and a route that is neither
 * needs a Bearer token; the description and the Bearer requirement follow from the same declaration.
 */
import { CanActivate, ExecutionContext, ForbiddenException, UseGuards } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { DECORATORS } from '@nestjs/swagger';
import passport, { Strategy } from 'passport';
import { KnownCallers } from '../overload/known-callers';
import { AccessGuard } from './access.guard';
import { Operation } from './operation';

class TokenCheck implements CanActivate {
  canActivate(): boolean {
    return true;
  }
}

const response = { data: 'boolean' as const };

class Routes {
  undeclared() {}

  @Operation({ summary: 'open', public: true, response })
  open() {}

  @Operation({ summary: 'keyed call', ownGuard: true, credentials: 'Requires query parameter `key`: a caller key.', response })
  @UseGuards(TokenCheck)
  keyedCall() {}

  @Operation({
    summary: 'keyed call without its guard',
    ownGuard: true,
    credentials: 'Requires query parameter `key`: a caller key.',
    response,
  })
  unguardedKeyedCall() {}

  @Operation({ summary: 'operator call', permission: 'thing:read', response })
  operatorCall() {}
}

const contextOf = (handler: keyof Routes): ExecutionContext =>
  ({
    getHandler: () => Routes.prototype[handler],
    getClass: () => Routes,
    switchToHttp: () => ({ getRequest: () => ({ headers: {}, query: {} }), getResponse: () => ({}) }),
  }) as unknown as ExecutionContext;

/** Stands in for the Bearer strategy: every request it sees lacks a valid token. */
passport.use('jwt', {
  authenticate(this: { fail(): void }) {
    this.fail();
  },
} as unknown as Strategy);
const guard = new AccessGuard(new Reflector(), new KnownCallers());
const operationOf = (handler: keyof Routes) =>
  Reflect.getMetadata(DECORATORS.API_OPERATION, Routes.prototype[handler]) as { description: string };
const securityOf = (handler: keyof Routes) =>
  Reflect.getMetadata(DECORATORS.API_SECURITY, Routes.prototype[handler]) as unknown[] | undefined;

describe('AccessGuard and the access kinds of Operation', () => {
  it('refuses a route without a rule, and an own-guard route without its guard', async () => {
    await expect(guard.canActivate(contextOf('undeclared'))).rejects.toThrow(ForbiddenException);
    await expect(guard.canActivate(contextOf('unguardedKeyedCall'))).rejects.toThrow(ForbiddenException);
  });

  it('lets public routes and guarded own-guard routes through without a Bearer token', async () => {
    await expect(guard.canActivate(contextOf('open'))).resolves.toBe(true);
    await expect(guard.canActivate(contextOf('keyedCall'))).resolves.toBe(true);
  });

  it('asks every other route for a Bearer token, saying it is missing', async () => {
    await expect(guard.canActivate(contextOf('operatorCall'))).rejects.toMatchObject({
      status: 401,
      message: 'Unauthorized: no Bearer token in the Authorization header',
    });
  });

  it('documents each kind from the same declaration', () => {
    expect(operationOf('open').description).toBe('Anonymous.');
    expect(operationOf('keyedCall').description).toBe('Requires query parameter `key`: a caller key.');
    expect(operationOf('operatorCall').description).toBe('Requires role `administrator` or permission `thing:read`.');
    expect([securityOf('open'), securityOf('keyedCall')]).toEqual([undefined, undefined]);
    expect(securityOf('operatorCall')).toEqual([{ bearer: [] }]);
  });

  it('refuses a declaration that is both public and own-guard, and an own-guard one that does not say what the caller presents', () => {
    expect(() => Operation({ summary: 'both', public: true, ownGuard: true, response })).toThrow('public or ownGuard, not both');
    expect(() => Operation({ summary: 'unsaid', ownGuard: true, response })).toThrow('ownGuard needs credentials');
  });
});
