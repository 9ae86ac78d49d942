import { parseArgs } from 'node:util';
import { AuthConfig, readConfig } from '@app/common';
import { isTokenIdentifier, TOKEN_IDENTIFIER_PATTERN } from '@app/common/auth/claims';
import { sign } from 'jsonwebtoken';

/**
 * Development tokens (`npm run token -- --tenant acme --user alice --roles administrator`).
 * Signs with JWT_SECRET (or the development default), exactly what the services verify: an `exp`
 * always, and JWT_ISSUER / JWT_AUDIENCE as `iss` / `aud` when they are set.
 */
function main(): void {
  const { values } = parseArgs({
    args: process.argv.slice(2),
    options: {
      tenant: { type: 'string', default: 'default' },
      user: { type: 'string', default: 'developer' },
      roles: { type: 'string', default: '' },
      permissions: { type: 'string', default: '' },
      expires: { type: 'string', default: '8h' },
    },
  });
  const config = readConfig(AuthConfig, process.env);
  if (config.jwtPublicKey || config.jwtJwksUri)
    throw new Error('JWT_PUBLIC_KEY/JWT_JWKS_URI is set: tokens come from your identity provider, not from this command');
  for (const [option, value] of [
    ['--tenant', values.tenant],
    ['--user', values.user],
  ])
    if (!isTokenIdentifier(value)) throw new Error(`${option} must match ${TOKEN_IDENTIFIER_PATTERN}: the services refuse any other value`);
  if (!values.expires.trim())
    throw new Error('--expires must be a lifetime like 8h or 3600 (seconds): the services refuse tokens without expiry');
  const list = (s: string) =>
    s
      .split(',')
      .map((v) => v.trim())
      .filter(Boolean);
  const claims = { sub: values.user, tenantId: values.tenant, roles: list(values.roles), permissions: list(values.permissions) };
  const expected = {
    ...(config.jwtIssuer ? { issuer: config.jwtIssuer } : {}),
    ...(config.jwtAudience ? { audience: config.jwtAudience } : {}),
  };
  process.stdout.write(`${sign(claims, config.jwtSecret, { algorithm: 'HS256', expiresIn: values.expires as never, ...expected })}\n`);
}

try {
  main();
} catch (error) {
  process.stderr.write(`${(error as Error).message}\n`);
  process.exit(1);
}
