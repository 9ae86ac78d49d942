import { Env, toBool, toList } from '@app/common';
import { Transform, Type } from 'class-transformer';
import { IsBoolean, IsInt, isFQDN, isIP, Max, Min, ValidateBy } from 'class-validator';
import { NAMESPACE_PATTERN } from './configuration/translation/translation.entity';

export interface CloudServiceNode {
  name: string;
  domain: string;
  region: string;
}

function isNodeList(value: unknown): value is CloudServiceNode[] {
  return (
    Array.isArray(value) &&
    value.length > 0 &&
    value.every(
      (node) => node && typeof node === 'object' && ['name', 'domain', 'region'].every((key) => typeof node[key] === 'string' && node[key]),
    )
  );
}

/** The JSON list as nodes of exactly {name, domain, region}; anything else is left for the validator to refuse. */
function parseNodes(raw: string): unknown {
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return raw;
  }
  return isNodeList(parsed) ? parsed.map(({ name, domain, region }) => ({ name, domain, region })) : parsed;
}

/** Attempts one replica's dispatcher runs at once (its workers). */
export const DISPATCH_CONCURRENCY = 8;
/**
 * How long a replica's claim on a message lasts. Far longer than an attempt (DISPATCH_ATTEMPT_TIMEOUT_MS is at
 * most a tenth of it), so a claim lapses only when its replica died, never under an attempt still running.
 */
export const DISPATCH_CLAIM_LEASE_MS = 10 * 60_000;
/** A host name or an IP address, as an entry of DELIVERY_ALLOWED_HOSTS. */
const isHostOrAddress = (value: unknown): boolean => typeof value === 'string' && (isIP(value) || isFQDN(value, { require_tld: false }));

/** main-service's own variables: cloud-service nodes, translation saveMissing, message delivery. */
export class MainServiceConfig {
  static readonly namespace = 'main-service';

  /** getCloudServiceInfo's nodes; unset: one local node, this service's own address (PORT, with the manifest's default). */
  @Env('CLOUD_SERVICE_NODES')
  @Transform(({ value, obj }) =>
    value === undefined ? [{ name: 'local', domain: `http://localhost:${obj.PORT}`, region: 'local' }] : parseNodes(value),
  )
  @ValidateBy({
    name: 'isCloudServiceNodes',
    validator: { validate: isNodeList, defaultMessage: () => 'must be a non-empty JSON array of {name, domain, region}' },
  })
  cloudServiceNodes: CloudServiceNode[];
  /** `false`: translation/saveMissing answers 404. */
  @Env('SAVE_MISSING_ENABLED') @Transform(toBool) @IsBoolean() saveMissingEnabled = true;
  /** saveMissing calls per client address per minute. */
  @Env('SAVE_MISSING_RATE_LIMIT') @Type(() => Number) @IsInt() @Min(1) saveMissingRateLimit = 120;
  /** Live drafts the default tenant may hold before saveMissing refuses new keys (429). */
  @Env('SAVE_MISSING_MAX_DRAFTS') @Type(() => Number) @IsInt() @Min(1) @Max(1_000_000) saveMissingMaxDrafts = 10_000;
  /**
   * Namespaces the anonymous translation endpoint serves to browsers (i18next-http-backend's loadPath): a comma
   * list, or `*` for all; unset or empty: every namespace but `error` (the service's own error texts).
   */
  @Env('TRANSLATION_PUBLIC_NAMESPACES')
  @Transform((params) => (params.value === '' ? undefined : toList(params)))
  @ValidateBy({
    name: 'isNamespaceList',
    validator: {
      validate: (value: unknown) =>
        value === undefined || (Array.isArray(value) && value.every((ns) => ns === '*' || NAMESPACE_PATTERN.test(ns))),
      defaultMessage: () => 'must be * or a comma list of i18next namespaces, e.g. common,admin/users',
    },
  })
  translationPublicNamespaces?: string[];
  /** Translation loads (the anonymous endpoint for browsers) per client address per minute. */
  @Env('TRANSLATION_LOAD_RATE_LIMIT') @Type(() => Number) @IsInt() @Min(1) translationLoadRateLimit = 600;
  /** Whether this replica sends the stored e-mails and SMS. */
  @Env('DISPATCH_ENABLED') @Transform(toBool) @IsBoolean() dispatchEnabled = true;
  /** Attempts per message before it is FAILED. */
  @Env('DISPATCH_MAX_RETRIES') @Type(() => Number) @IsInt() @Min(1) @Max(100) dispatchMaxRetries = 5;
  /** Delay after the first failed attempt; doubled per attempt, capped at an hour. */
  @Env('DISPATCH_RETRY_BASE_MS') @Type(() => Number) @IsInt() @Min(1) @Max(3_600_000) dispatchRetryBaseMs = 30_000;
  /** How often the dispatcher looks for due messages. */
  @Env('DISPATCH_POLL_MS') @Type(() => Number) @IsInt() @Min(10) @Max(600_000) dispatchPollMs = 5_000;
  /**
   * Messages of one tenant in flight at once, counted over the claims of all replicas; below
   * DISPATCH_CONCURRENCY, so one tenant never fills a replica's workers.
   */
  @Env('DISPATCH_TENANT_IN_FLIGHT_MAX') @Type(() => Number) @IsInt() @Min(1) @Max(DISPATCH_CONCURRENCY - 1) dispatchTenantInFlightMax = 4;
  /** Consecutive connection failures or timeouts of one sender configuration that pause it. */
  @Env('DISPATCH_BREAKER_FAILURES') @Type(() => Number) @IsInt() @Min(1) @Max(100) dispatchBreakerFailures = 5;
  /** First pause of such a configuration; doubled each time its trial attempt fails, capped at an hour. */
  @Env('DISPATCH_BREAKER_PAUSE_MS') @Type(() => Number) @IsInt() @Min(10) @Max(3_600_000) dispatchBreakerPauseMs = 30_000;
  /** SMTP: bound of connecting and of waiting for the server's greeting (the idle-socket bound is 3 times it). */
  @Env('DISPATCH_SMTP_TIMEOUT_MS') @Type(() => Number) @IsInt() @Min(50) @Max(60_000) dispatchSmtpTimeoutMs = 5_000;
  /**
   * Hard bound of one attempt at a server or provider, the address lookup included: the whole SMTP transaction
   * (connect, EHLO, STARTTLS, AUTH, MAIL, DATA) or the whole SMS HTTP call. Past it the connection is closed and
   * the attempt fails as TIMEOUT (and is retried). At most a tenth of the claim lease; below SHUTDOWN_TIMEOUT_MS
   * by default, since shutdown waits for the attempts in hand.
   */
  @Env('DISPATCH_ATTEMPT_TIMEOUT_MS')
  @Type(() => Number)
  @IsInt()
  @Min(50)
  @Max(DISPATCH_CLAIM_LEASE_MS / 10)
  dispatchAttemptTimeoutMs = 8_000;
  /**
   * Delivery destinations allowed although they are internal (loopback, private, link-local...): host names
   * (matched exactly, any case) or addresses. For in-cluster relays and local sinks; empty: public addresses only.
   */
  @Env('DELIVERY_ALLOWED_HOSTS')
  @Transform(toList)
  @ValidateBy({
    name: 'isHostList',
    validator: {
      validate: (value: unknown) => Array.isArray(value) && value.every(isHostOrAddress),
      defaultMessage: () => 'must be a comma list of host names or IP addresses, e.g. 127.0.0.1,mail-relay.mail.svc',
    },
  })
  deliveryAllowedHosts: string[] = [];
}
