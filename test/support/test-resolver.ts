import { isIP } from 'node:net';
import { DeliveryResolver } from '../../apps/main-service/src/message/delivery/address-guard';

/**
 * The delivery resolver of the test apps: an address resolves to itself, `localhost` and the names a test
 * registers (`names`) to what they say, and any other name fails as unknown (ENOTFOUND): no test ever asks a
 * DNS server (the sample configurations name hosts under example.com).
 */
export class TestResolver extends DeliveryResolver {
  readonly names = new Map<string, string[]>([['localhost', ['127.0.0.1']]]);
  /** Every lookup asked of it, in order. */
  readonly asked: string[] = [];

  override async addresses(host: string): Promise<string[]> {
    this.asked.push(host);
    if (isIP(host)) return [host];
    const found = this.names.get(host.toLowerCase());
    if (!found) throw Object.assign(new Error(`${host} is not a name the test registered`), { code: 'ENOTFOUND' });
    return [...found];
  }
}
