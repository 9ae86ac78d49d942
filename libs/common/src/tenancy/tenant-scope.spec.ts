import { RequestContext } from './request-context';
import { AllTenantsRead, TenantScope } from './tenant-scope';

const asPrincipal = <T>(tenantId: string, username: string, fn: () => T): T =>
  RequestContext.run(() => {
    RequestContext.setPrincipal({ tenantId, username, roles: [], permissions: [] });
    return fn();
  });

describe('TenantScope', () => {
  it("is the verified principal's tenant and name inside a request", () => {
    const scope = asPrincipal('acme', 'alice', () => TenantScope.current());
    expect([scope.tenantId, scope.username, String(scope)]).toEqual(['acme', 'alice', 'acme (request)']);
  });

  it('throws without a request context, and in a request whose token was not verified', () => {
    expect(() => TenantScope.current()).toThrow('No authenticated principal in the request context');
    expect(() => RequestContext.run(() => TenantScope.current())).toThrow('No authenticated principal in the request context');
  });

  it('is created for the server only with a named purpose', () => {
    const scope = TenantScope.system('reading the default tenant', 'default', 'job');
    expect([scope.tenantId, scope.username, String(scope)]).toEqual(['default', 'job', 'default (system: reading the default tenant)']);
    expect(() => TenantScope.system('', 'default', 'job')).toThrow('A system scope needs a purpose');
    expect(() => TenantScope.system('why', '', 'job')).toThrow('A system scope needs a purpose');
    expect(() => AllTenantsRead.of('')).toThrow('A read across tenants needs a purpose');
    expect(AllTenantsRead.of('number lookup').purpose).toBe('number lookup');
  });

  it('cannot be forged from a plain object (checked by the compiler)', () => {
    const accepts = (scope: TenantScope) => scope.tenantId;
    // @ts-expect-error a plain { tenantId, username } is not a TenantScope
    expect(accepts({ tenantId: 'evil', username: 'mallory' })).toBe('evil');
    // @ts-expect-error the constructor is private
    expect(() => new TenantScope('evil', 'mallory', 'request')).not.toThrow();
  });
});
