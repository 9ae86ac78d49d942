import { parseArgs } from 'node:util';
// the modules themselves, not the library's index: the index loads Nest and TypeORM, seconds for one token
import { ADMINISTRATOR_ROLE } from '@app/common/auth/access';
import { isTokenIdentifier, TOKEN_IDENTIFIER_PATTERN } from '@app/common/auth/claims';
import { AuthConfig } from '@app/common/config/auth.config';
import { readConfig } from '@app/common/config/environment';
import { sign } from 'jsonwebtoken';

const USAGE = `Usage: npm run --silent token -- [options]
Prints a development bearer token signed with JWT_SECRET (the services' development default when unset).
  --tenant ID          tenant of the token (default: default)
  --user NAME          username, the token's sub (default: developer)
  --roles A,B          roles; administrator may do everything in its tenant
  --permissions P,Q    permissions <name>:<action>, e.g. configuration-data-dictionary:read
  --expires LIFETIME   lifetime like 8h, 30m or 3600 (seconds) (default: 8h)
  --help               this text
JWT_ISSUER and JWT_AUDIENCE, when set, become the token's iss and aud.
`;

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
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    process.stdout.write(USAGE);
    return;
  }
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
  const roles = list(values.roles);
  // the services know one role: any other would mint a token that every operation answers with 403
  const unknown = roles.filter((role) => role !== ADMINISTRATOR_ROLE);
  if (unknown.length)
    throw new Error(
      `--roles: unknown role ${unknown.join(', ')}: the services know only ${ADMINISTRATOR_ROLE}; grant the rest with --permissions`,
    );
  const claims = { sub: values.user, tenantId: values.tenant, roles, permissions: list(values.permissions) };
  const expected = {
    ...(config.jwtIssuer ? { issuer: config.jwtIssuer } : {}),
    ...(config.jwtAudience ? { audience: config.jwtAudience } : {}),
  };
  process.stdout.write(`${sign(claims, config.jwtSecret, { algorithm: 'HS256', expiresIn: values.expires as never, ...expected })}\n`);
  process.stderr.write(`${signedWith(process.env)}\n`);
}

/**
 * The one stderr line that says which secret signed the token, never the secret: a service started with another
 * JWT_SECRET refuses the token as "signature is invalid".
 */
function signedWith(env: NodeJS.ProcessEnv): string {
  return env.JWT_SECRET
    ? 'token: signed with JWT_SECRET from the environment; a service accepts it when its JWT_SECRET is the same'
    : 'token: signed with the built-in development secret (JWT_SECRET unset); a service accepts it while its own JWT_SECRET is unset too';
}

try {
  main();
} catch (error) {
  // parseArgs names the unknown option; the usage says which there are
  process.stderr.write(`${(error as Error).message}\n\n${USAGE}`);
  process.exit(1);
}
