import { Transform, Type } from 'class-transformer';
import { IsBoolean, IsInt, isFQDN, isIP, Max, Min, ValidateBy } from 'class-validator';
import { Env, toBool, toList } from './environment';

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
  /** Whether this replica sends the stored e-mails and SMS. */
  @Env('DISPATCH_ENABLED') @Transform(toBool) @IsBoolean() dispatchEnabled = true;
  /** Attempts per message before it is FAILED. */
  @Env('DISPATCH_MAX_RETRIES') @Type(() => Number) @IsInt() @Min(1) @Max(100) dispatchMaxRetries = 5;
  /** Delay after the first failed attempt; doubled per attempt, capped at an hour. */
  @Env('DISPATCH_RETRY_BASE_MS') @Type(() => Number) @IsInt() @Min(1) @Max(3_600_000) dispatchRetryBaseMs = 30_000;
  /** How often the dispatcher looks for due messages. */
  @Env('DISPATCH_POLL_MS') @Type(() => Number) @IsInt() @Min(10) @Max(600_000) dispatchPollMs = 5_000;
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
