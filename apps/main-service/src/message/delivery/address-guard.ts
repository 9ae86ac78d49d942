import { AppException, parseIpAddress } from '@app/common';
import { Global, Injectable, Module } from '@nestjs/common';
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { DeliveryFailure, systemCode } from './delivery-failure';
import { specialPurposeRange } from './special-purpose-ranges';
import { MainServiceConfig } from '../../main-service.config';

/**
 * Only public addresses are delivered to unless the operator allows more (DELIVERY_ALLOWED_HOSTS): a strictly
 * spelled address in none of the IANA special-purpose ranges (special-purpose-ranges.ts).
 */
export function isPublicAddress(address: string): boolean {
  const parsed = parseIpAddress(address);
  return parsed !== undefined && specialPurposeRange(parsed) === undefined;
}

/** One spelling per address (`::1` and `0:0:0:0:0:0:0:1` are one entry); undefined for what is not one. */
const normalAddress = (address: string): string | undefined => parseIpAddress(address)?.toNormalizedString();
/** Host names compare in lower case, without the root's trailing dot. */
const normalName = (host: string): string => host.toLowerCase().replace(/\.$/, '');

/** The host of an endpoint URL as a name or a bare address (`[::1]` → `::1`). */
export const hostOfUrl = (url: URL): string => url.hostname.replace(/^\[(.*)\]$/, '$1');

/** A lookup longer than this is a failed one: a save waits for it, and a send holds a claim meanwhile. */
const LOOKUP_TIMEOUT_MS = 5_000;

/** Every address a host name resolves to (getaddrinfo: hosts file, then DNS); an address resolves to itself. */
@Injectable()
export class DeliveryResolver {
  async addresses(host: string): Promise<string[]> {
    if (isIP(host)) return [host];
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(Object.assign(new Error('lookup timed out'), { code: 'ETIMEOUT' })), LOOKUP_TIMEOUT_MS);
    });
    try {
      const found = await Promise.race([lookup(host, { all: true, verbatim: true }), timeout]);
      return found.map((a) => a.address);
    } finally {
      clearTimeout(timer);
    }
  }
}

/**
 * Where delivery may connect: the SMTP host and the SMS endpoint of a tenant's configuration must resolve
 * to public addresses only, unless DELIVERY_ALLOWED_HOSTS names the host or each of its addresses. Checked
 * on save (early word for the editor) and on every send (names may resolve differently by then); a send
 * connects to the very address that was checked, so a second, different DNS answer is never used.
 */
@Injectable()
export class AddressGuard {
  private readonly names = new Set<string>();
  private readonly addresses = new Set<string>();

  constructor(
    config: MainServiceConfig,
    private readonly resolver: DeliveryResolver,
  ) {
    for (const entry of config.deliveryAllowedHosts) {
      const address = normalAddress(entry);
      if (address) this.addresses.add(address);
      else this.names.add(normalName(entry));
    }
  }

  /**
   * A save's check of `field`: an internal destination is a validation error. A name that does not resolve
   * now is accepted (it may, later): the send checks it again.
   */
  async checkOnSave(field: string, host: string): Promise<void> {
    let addresses: string[];
    try {
      addresses = await this.resolver.addresses(host);
    } catch {
      return;
    }
    if (!this.allowed(host, addresses))
      throw AppException.validation(
        `${field} must resolve to public addresses only, not loopback, private, link-local or other special ranges (the operator may allow a host in DELIVERY_ALLOWED_HOSTS)`,
      );
  }

  /** A send's check: the address to connect to; an internal one is a permanent failure, a failed lookup a passing one. */
  async pin(host: string): Promise<string> {
    let addresses: string[];
    try {
      addresses = await this.resolver.addresses(host);
    } catch (error) {
      throw DeliveryFailure.of('CONNECT', systemCode(error) ?? 'DNS');
    }
    if (!addresses.length) throw DeliveryFailure.of('CONNECT', 'DNS');
    if (!this.allowed(host, addresses)) throw DeliveryFailure.of('ADDRESS_NOT_ALLOWED', undefined, true);
    return addresses[0];
  }

  /** A name that mixes public and internal addresses is refused as a whole: any of them could be the one used. */
  private allowed(host: string, addresses: string[]): boolean {
    if (this.names.has(normalName(host))) return true;
    return addresses.every((a) => isPublicAddress(a) || this.addresses.has(normalAddress(a) ?? ''));
  }
}

/** Global: the configuration controllers (in the CRUD module) check on save, the senders on send. */
@Global()
@Module({ providers: [AddressGuard, DeliveryResolver], exports: [AddressGuard, DeliveryResolver] })
export class AddressGuardModule {}
