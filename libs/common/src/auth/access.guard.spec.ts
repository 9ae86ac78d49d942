/**
 * The access kinds of Operation as the global guard applies them: no rule is refused, a public route
 * passes, a device-token route passes to its own guard only when it has one, and a route that is neither
 * needs a Bearer token; the description and the Bearer requirement follow from the same declaration.
 */
import { CanActivate, ExecutionContext, ForbiddenException, UseGuards } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { DECORATORS } from '@nestjs/swagger';
import passport, { Strategy } from 'passport';
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

  @Operation({ summary: 'device call', deviceToken: true, response })
  @UseGuards(TokenCheck)
  deviceCall() {}

  @Operation({ summary: 'device call without its guard', deviceToken: true, response })
  unguardedDeviceCall() {}

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
const guard = new AccessGuard(new Reflector());
const operationOf = (handler: keyof Routes) =>
  Reflect.getMetadata(DECORATORS.API_OPERATION, Routes.prototype[handler]) as { description: string };
const securityOf = (handler: keyof Routes) =>
  Reflect.getMetadata(DECORATORS.API_SECURITY, Routes.prototype[handler]) as unknown[] | undefined;

describe('AccessGuard and the access kinds of Operation', () => {
  it('refuses a route without a rule, and a device-token route without its own guard', async () => {
    await expect(guard.canActivate(contextOf('undeclared'))).rejects.toThrow(ForbiddenException);
    await expect(guard.canActivate(contextOf('unguardedDeviceCall'))).rejects.toThrow(ForbiddenException);
  });

  it('lets public routes and guarded device-token routes through without a Bearer token', async () => {
    await expect(guard.canActivate(contextOf('open'))).resolves.toBe(true);
    await expect(guard.canActivate(contextOf('deviceCall'))).resolves.toBe(true);
  });

  it('asks every other route for a Bearer token, saying it is missing', async () => {
    await expect(guard.canActivate(contextOf('operatorCall'))).rejects.toMatchObject({
      status: 401,
      message: 'Unauthorized: no Bearer token in the Authorization header',
    });
  });

  it('documents each kind from the same declaration', () => {
    expect(operationOf('open').description).toBe('Anonymous.');
    expect(operationOf('deviceCall').description).toBe('Requires a device token in query parameter `token` (no Bearer token).');
    expect(operationOf('operatorCall').description).toBe('Requires role `administrator` or permission `thing:read`.');
    expect([securityOf('open'), securityOf('deviceCall')]).toEqual([undefined, undefined]);
    expect(securityOf('operatorCall')).toEqual([{ bearer: [] }]);
  });

  it('refuses a declaration that is both public and device-token', () => {
    expect(() => Operation({ summary: 'both', public: true, deviceToken: true, response })).toThrow('public or deviceToken, not both');
  });
});
