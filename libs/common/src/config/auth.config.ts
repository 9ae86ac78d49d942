import { createPublicKey } from 'node:crypto';
import { Transform } from 'class-transformer';
import { IsOptional, IsString, MinLength, ValidateBy } from 'class-validator';
import { Env, StartupWarnings } from './environment';

const DEV_JWT_SECRET = 'dev-only-jwt-secret-change-me';

function isPublicKeyPem(value: unknown): boolean {
  try {
    createPublicKey(value as string);
    return true;
  } catch {
    return false;
  }
}

/** Bearer tokens: HS256 with JWT_SECRET, or RS256 with JWT_PUBLIC_KEY / JWT_JWKS_URI; optional `iss` / `aud`. */
export class AuthConfig implements StartupWarnings {
  static readonly namespace = 'auth';

  @Env('JWT_SECRET') @IsString() @MinLength(16) jwtSecret = DEV_JWT_SECRET;
  /** The PEM, `\n` escapes turned into newlines; refused at start-up unless it is a public key (the JWT strategy parses it once). */
  @Env('JWT_PUBLIC_KEY')
  @IsOptional()
  @Transform(({ value }) => (typeof value === 'string' ? value.replace(/\\n/g, '\n') : value))
  @ValidateBy({
    name: 'isPublicKeyPem',
    validator: { validate: isPublicKeyPem, defaultMessage: () => 'must be a PEM public key (RS256), newlines as \\n allowed' },
  })
  jwtPublicKey?: string;
  @Env('JWT_JWKS_URI') @IsOptional() @IsString() jwtJwksUri?: string;
  /** When set, Bearer tokens must carry this `iss` / `aud`. */
  @Env('JWT_ISSUER') @IsOptional() @IsString() @MinLength(1) jwtIssuer?: string;
  @Env('JWT_AUDIENCE') @IsOptional() @IsString() @MinLength(1) jwtAudience?: string;

  /** HS256 with the development secret: neither JWT_SECRET nor an RS256 key is configured. */
  get usesDevJwtSecret(): boolean {
    return !this.jwtPublicKey && !this.jwtJwksUri && this.jwtSecret === DEV_JWT_SECRET;
  }

  startupWarnings(): string[] {
    return this.usesDevJwtSecret ? ['JWT_SECRET is not set: using the development secret. Never run production like this.'] : [];
  }
}
