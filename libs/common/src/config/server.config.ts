import { Transform, Type } from 'class-transformer';
import { IsBoolean, IsIn, IsInt, IsString, Matches, Max, Min } from 'class-validator';
import { Env, toBool, toList } from './environment';

/** The HTTP process of either service: where it listens, whom it trusts, its logs, metrics and shutdown (docs/operations.md). */
export class ServerConfig {
  static readonly namespace = 'server';

  /** Always set: the service's manifest supplies the default. */
  @Env('PORT') @Type(() => Number) @IsInt() @Min(1) @Max(65535) port: number;
  /** Express trust-proxy setting (getClientIp). */
  @Env('TRUST_PROXY') @IsString() trustProxy = 'loopback';
  /** Origins a browser app may call from; empty: no CORS headers at all. */
  @Env('CORS_ORIGINS')
  @Transform(toList)
  @IsString({ each: true })
  @Matches(/^https?:\/\/[A-Za-z0-9.-]+(:\d{1,5})?$/, {
    each: true,
    message: 'must be a comma list of origins like https://admin.example.com',
  })
  corsOrigins: string[] = [];
  /** Nest's names (`log`, `verbose`) or pino's (`info`, `trace`) for the same levels. */
  @Env('LOG_LEVEL') @IsIn(['fatal', 'error', 'warn', 'log', 'info', 'debug', 'verbose', 'trace']) logLevel = 'log';
  /** How long a client may take to send a whole request (headers: at most HEADERS_TIMEOUT_MS of it); then 408. */
  @Env('HTTP_REQUEST_TIMEOUT_MS') @Type(() => Number) @IsInt() @Min(1000) @Max(600_000) requestTimeoutMs = 90_000;
  /** How long a SIGTERM/SIGINT waits for in-flight requests and resources before exiting non-zero. */
  @Env('SHUTDOWN_TIMEOUT_MS') @Type(() => Number) @IsInt() @Min(100) @Max(600_000) shutdownTimeoutMs = 10_000;
  @Env('METRICS_ENABLED') @Transform(toBool) @IsBoolean() metricsEnabled = true;
}
