import { parseArgs } from 'node:util';
import { AppConfig } from '@app/common';
import { sign } from 'jsonwebtoken';

/**
 * Development tokens (`npm run token -- --tenant acme --user alice --roles administrator`).
 * Signs with JWT_SECRET (or the development default), exactly what the services verify.
 */
function main(): void {
  const { values } = parseArgs({
    options: {
      tenant: { type: 'string', default: 'default' },
      user: { type: 'string', default: 'developer' },
      roles: { type: 'string', default: '' },
      permissions: { type: 'string', default: '' },
      expires: { type: 'string', default: '8h' },
    },
  });
  const config = new AppConfig(process.env, { port: 0 });
  if (config.jwtPublicKey || config.jwtJwksUri) throw new Error('JWT_PUBLIC_KEY/JWT_JWKS_URI is set: tokens come from your identity provider, not from this command');
  const list = (s: string) => s.split(',').map((v) => v.trim()).filter(Boolean);
  const claims = { sub: values.user, tenantId: values.tenant, roles: list(values.roles), permissions: list(values.permissions) };
  process.stdout.write(`${sign(claims, config.jwtSecret, { algorithm: 'HS256', expiresIn: values.expires as never })}\n`);
}

try {
  main();
} catch (error) {
  process.stderr.write(`${(error as Error).message}\n`);
  process.exit(1);
}
