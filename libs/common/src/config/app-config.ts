import { createPublicKey } from 'node:crypto';
import { plainToInstance, Transform, Type } from 'class-transformer';
import { IsBoolean, IsIn, IsInt, IsOptional, IsString, Matches, Max, Min, MinLength, validateSync } from 'class-validator';

export interface CloudServiceNode {
  name: string;
  domain: string;
  region: string;
}

const DEV_JWT_SECRET = 'dev-only-jwt-secret-change-me';
const DEV_DEVICE_TOKEN_SECRET = 'dev-only-device-token-secret-change-me';
/** `true`/`false` (any case); anything else is left as is, so @IsBoolean names the variable. */
const toBool = ({ value }: { value: unknown }) => {
  const text = String(value).toLowerCase();
  return text === 'true' ? true : text === 'false' ? false : value;
};
const toList = ({ value }: { value: unknown }) =>
  typeof value === 'string' ? value.split(',').map((s) => s.trim()).filter(Boolean) : value;

/** Environment contract of README "Configuration" (plus the few knobs documented in docs/configuration.md). */
class Environment {
  @IsOptional() @Type(() => Number) @IsInt() @Min(1) @Max(65535) PORT?: number;
  @IsOptional() @IsString() @Matches(/^(mysql|mariadb):\/\/[^/]+\/[A-Za-z0-9_$]+(\?.*)?$/, { message: 'DB_URL must look like mysql://user:pass@host:3306/db' }) DB_URL?: string;
  @IsString() SQLITE_DIR = './data';
  @IsOptional() @Transform(toList) @IsString({ each: true }) KAFKA_BROKERS?: string[];
  @IsString() @Matches(/^[A-Za-z0-9._-]{0,100}$/, { message: 'KAFKA_TOPIC_PREFIX may hold only letters, digits, dot, underscore and dash' }) KAFKA_TOPIC_PREFIX = '';
  @IsString() @MinLength(16) JWT_SECRET = DEV_JWT_SECRET;
  @IsOptional() @IsString() JWT_PUBLIC_KEY?: string;
  @IsOptional() @IsString() JWT_JWKS_URI?: string;
  @IsOptional() @IsString() @MinLength(1) JWT_ISSUER?: string;
  @IsOptional() @IsString() @MinLength(1) JWT_AUDIENCE?: string;
  @IsOptional() @Transform(toList) @IsString({ each: true }) @Matches(/^https?:\/\/[A-Za-z0-9.-]+(:\d{1,5})?$/, { each: true, message: 'CORS_ORIGINS must be a comma list of origins like https://admin.example.com' }) CORS_ORIGINS?: string[];
  @IsString() @Matches(/^[A-Za-z0-9_-]{1,64}$/) DEFAULT_TENANT_ID = 'default';
  @IsString() @MinLength(16) DEVICE_TOKEN_SECRET = DEV_DEVICE_TOKEN_SECRET;
  @Type(() => Number) @IsInt() @Min(1) DEVICE_TOKEN_TTL_SECONDS = 86400;
  @Type(() => Number) @IsInt() @Min(1) DEVICE_SECRET_MAX_FAILURES = 5;
  @Type(() => Number) @IsInt() @Min(1) DEVICE_SECRET_LOCKOUT_SECONDS = 900;
  @Type(() => Number) @IsInt() @Min(1) DEVICE_TOKEN_RATE_LIMIT = 30;
  @IsOptional() @IsString() CLOUD_SERVICE_NODES?: string;
  @IsString() TRUST_PROXY = 'loopback';
  @Type(() => Number) @IsInt() @Min(1) PAGE_SIZE_MAX = 1000;
  @Type(() => Number) @IsInt() @Min(1) LIST_LIMIT_MAX = 10000;
  @Type(() => Number) @IsInt() @Min(0) LIST_CACHE_TTL_SECONDS = 60;
  @Type(() => Number) @IsInt() @Min(1) @Max(100) DB_POOL_SIZE = 10;
  @Transform(toBool) @IsBoolean() SAVE_MISSING_ENABLED = true;
  @Type(() => Number) @IsInt() @Min(1) SAVE_MISSING_RATE_LIMIT = 120;
  @IsIn(['fatal', 'error', 'warn', 'log', 'debug', 'verbose']) LOG_LEVEL = 'log';
  @Type(() => Number) @IsInt() @Min(100) @Max(600_000) SHUTDOWN_TIMEOUT_MS = 10_000;
  @Transform(toBool) @IsBoolean() METRICS_ENABLED = true;
  @Transform(toBool) @IsBoolean() DISPATCH_ENABLED = true;
  @Type(() => Number) @IsInt() @Min(1) @Max(100) DISPATCH_MAX_RETRIES = 5;
  @Type(() => Number) @IsInt() @Min(1) @Max(3_600_000) DISPATCH_RETRY_BASE_MS = 30_000;
  @Type(() => Number) @IsInt() @Min(10) @Max(600_000) DISPATCH_POLL_MS = 5_000;
}

/** Typed, validated configuration. A bad variable stops start-up with a message naming it. */
export class AppConfig {
  readonly port: number;
  readonly dbUrl?: string;
  readonly sqliteDir: string;
  readonly kafkaBrokers?: string[];
  readonly kafkaTopicPrefix: string;
  readonly jwtSecret: string;
  readonly jwtPublicKey?: string;
  readonly jwtJwksUri?: string;
  /** When set, Bearer tokens must carry this `iss` / `aud`. */
  readonly jwtIssuer?: string;
  readonly jwtAudience?: string;
  /** Origins a browser app may call from; empty: no CORS headers at all. */
  readonly corsOrigins: string[];
  readonly defaultTenantId: string;
  readonly deviceTokenSecret: string;
  readonly deviceTokenTtlSeconds: number;
  readonly deviceSecretMaxFailures: number;
  readonly deviceSecretLockoutMs: number;
  /** Token calls (getGenerationTokenKeyBy...No) per client address per minute, counted across replicas. */
  readonly deviceTokenRateLimit: number;
  readonly usesDevDeviceTokenSecret: boolean;
  readonly cloudServiceNodes: CloudServiceNode[];
  readonly trustProxy: string;
  readonly pageSizeMax: number;
  readonly listLimitMax: number;
  readonly listCacheTtlMs: number;
  readonly dbPoolSize: number;
  readonly saveMissingEnabled: boolean;
  readonly saveMissingRateLimit: number;
  readonly logLevel: string;
  /** How long a SIGTERM/SIGINT waits for in-flight requests and resources before exiting non-zero. */
  readonly shutdownTimeoutMs: number;
  readonly metricsEnabled: boolean;
  /** Message delivery (main-service): whether this replica sends stored e-mails and SMS. */
  readonly dispatchEnabled: boolean;
  /** Attempts per message before it is FAILED. */
  readonly dispatchMaxRetries: number;
  /** Delay after the first failed attempt; doubled per attempt, capped at an hour. */
  readonly dispatchRetryBaseMs: number;
  /** How often the dispatcher looks for due messages. */
  readonly dispatchPollMs: number;
  readonly usesDevJwtSecret: boolean;

  constructor(env: NodeJS.ProcessEnv, defaults: { port: number }) {
    const present = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
    const e = plainToInstance(Environment, present, { exposeDefaultValues: true });
    const errors = validateSync(e, { whitelist: false });
    if (errors.length) {
      const lines = errors.map((er) => `${er.property}: ${Object.values(er.constraints ?? {}).join(', ')}`);
      throw new Error(`Invalid configuration:\n  ${lines.join('\n  ')}`);
    }
    this.port = e.PORT ?? defaults.port;
    this.dbUrl = e.DB_URL;
    this.sqliteDir = e.SQLITE_DIR;
    this.kafkaBrokers = e.KAFKA_BROKERS?.length ? e.KAFKA_BROKERS : undefined;
    this.kafkaTopicPrefix = e.KAFKA_TOPIC_PREFIX;
    this.jwtSecret = e.JWT_SECRET;
    this.jwtPublicKey = e.JWT_PUBLIC_KEY === undefined ? undefined : publicKeyPem(e.JWT_PUBLIC_KEY);
    this.jwtJwksUri = e.JWT_JWKS_URI;
    this.jwtIssuer = e.JWT_ISSUER;
    this.jwtAudience = e.JWT_AUDIENCE;
    this.corsOrigins = e.CORS_ORIGINS ?? [];
    this.defaultTenantId = e.DEFAULT_TENANT_ID;
    this.deviceTokenSecret = e.DEVICE_TOKEN_SECRET;
    this.deviceTokenTtlSeconds = e.DEVICE_TOKEN_TTL_SECONDS;
    this.deviceSecretMaxFailures = e.DEVICE_SECRET_MAX_FAILURES;
    this.deviceSecretLockoutMs = e.DEVICE_SECRET_LOCKOUT_SECONDS * 1000;
    this.deviceTokenRateLimit = e.DEVICE_TOKEN_RATE_LIMIT;
    this.usesDevDeviceTokenSecret = this.deviceTokenSecret === DEV_DEVICE_TOKEN_SECRET;
    this.cloudServiceNodes = parseNodes(e.CLOUD_SERVICE_NODES, this.port);
    this.trustProxy = e.TRUST_PROXY;
    this.pageSizeMax = e.PAGE_SIZE_MAX;
    this.listLimitMax = e.LIST_LIMIT_MAX;
    this.listCacheTtlMs = e.LIST_CACHE_TTL_SECONDS * 1000;
    this.dbPoolSize = e.DB_POOL_SIZE;
    this.saveMissingEnabled = e.SAVE_MISSING_ENABLED;
    this.saveMissingRateLimit = e.SAVE_MISSING_RATE_LIMIT;
    this.logLevel = e.LOG_LEVEL;
    this.shutdownTimeoutMs = e.SHUTDOWN_TIMEOUT_MS;
    this.metricsEnabled = e.METRICS_ENABLED;
    this.dispatchEnabled = e.DISPATCH_ENABLED;
    this.dispatchMaxRetries = e.DISPATCH_MAX_RETRIES;
    this.dispatchRetryBaseMs = e.DISPATCH_RETRY_BASE_MS;
    this.dispatchPollMs = e.DISPATCH_POLL_MS;
    this.usesDevJwtSecret = !this.jwtPublicKey && !this.jwtJwksUri && this.jwtSecret === DEV_JWT_SECRET;
  }
}

/** The PEM with `\n` escapes turned into newlines; refused unless it is a public key (the JWT strategy parses it once). */
function publicKeyPem(raw: string): string {
  const pem = raw.replace(/\\n/g, '\n');
  try {
    createPublicKey(pem);
  } catch {
    throw new Error('Invalid configuration:\n  JWT_PUBLIC_KEY: must be a PEM public key (RS256), newlines as \\n allowed');
  }
  return pem;
}

function parseNodes(raw: string | undefined, port: number): CloudServiceNode[] {
  if (!raw) return [{ name: 'local', domain: `http://localhost:${port}`, region: 'local' }];
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new Error('Invalid configuration:\n  CLOUD_SERVICE_NODES: must be a JSON array of {name, domain, region}');
  }
  const ok =
    Array.isArray(parsed) &&
    parsed.length > 0 &&
    parsed.every((n) => n && ['name', 'domain', 'region'].every((k) => typeof n[k] === 'string' && n[k]));
  if (!ok) throw new Error('Invalid configuration:\n  CLOUD_SERVICE_NODES: must be a non-empty JSON array of {name, domain, region}');
  return (parsed as CloudServiceNode[]).map(({ name, domain, region }) => ({ name, domain, region }));
}
