import { AppException } from '@app/common';
import { AddressGuard, addressRange, DeliveryResolver, hostOfUrl, isPublicAddress } from './address-guard';
import { DeliveryFailure } from './delivery-failure';
import { MainServiceConfig } from '../../main-service.config';

/** Answers from a table; any other name fails as unknown. Never a DNS server. */
class TableResolver extends DeliveryResolver {
  constructor(private readonly table: Record<string, string[]>) {
    super();
  }
  override async addresses(host: string): Promise<string[]> {
    const found = this.table[host];
    if (!found) throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
    return found;
  }
}

const guard = (allowed: string[], table: Record<string, string[]> = {}) =>
  new AddressGuard(Object.assign(new MainServiceConfig(), { deliveryAllowedHosts: allowed }), new TableResolver(table));

describe('addressRange', () => {
  it('public unicast addresses only are public; loopback, private, link-local, unique-local, CGNAT, unspecified, v4-mapped are not', () => {
    const table: [string, string][] = [
      ['8.8.8.8', 'unicast'],
      ['2606:4700:4700::1111', 'unicast'],
      ['127.0.0.1', 'loopback'],
      ['127.255.0.9', 'loopback'],
      ['::1', 'loopback'],
      ['10.0.0.5', 'private'],
      ['172.16.0.1', 'private'],
      ['192.168.1.10', 'private'],
      ['169.254.169.254', 'linkLocal'],
      ['fe80::1', 'linkLocal'],
      ['fd00::1', 'uniqueLocal'],
      ['100.64.0.1', 'carrierGradeNat'],
      ['0.0.0.0', 'unspecified'],
      ['::', 'unspecified'],
      ['::ffff:127.0.0.1', 'ipv4Mapped'],
      ['::ffff:8.8.8.8', 'ipv4Mapped'],
      ['64:ff9b::a00:1', 'rfc6052'],
      ['224.0.0.1', 'multicast'],
      ['255.255.255.255', 'broadcast'],
      ['not an address', 'invalid'],
    ];
    for (const [address, range] of table) expect({ address, range: addressRange(address) }).toEqual({ address, range });
    expect(table.filter(([a]) => isPublicAddress(a)).map(([a]) => a)).toEqual(['8.8.8.8', '2606:4700:4700::1111']);
  });

  it('hostOfUrl: a bracketed IPv6 host comes bare', () => {
    expect(hostOfUrl(new URL('http://[::ffff:127.0.0.1]:80/x'))).toBe('::ffff:7f00:1');
    expect(hostOfUrl(new URL('https://SMS.Example.com/x'))).toBe('sms.example.com');
  });
});

describe('AddressGuard', () => {
  it('pin: the first address of a public name; an allowed address or name; a refusal is permanent, a failed lookup is not', async () => {
    const g = guard(['127.0.0.1', '0:0:0:0:0:0:0:1', 'Relay.Mail.Svc.'], {
      'smtp.example.com': ['8.8.8.8', '2606:4700:4700::1111'],
      'relay.mail.svc': ['10.9.8.7'],
      'sink.local': ['127.0.0.1', '::1'],
      'mixed.example.com': ['8.8.8.8', '10.0.0.1'],
      'private.example.com': ['192.168.0.2'],
      '127.0.0.1': ['127.0.0.1'],
      '127.0.0.2': ['127.0.0.2'],
    });
    expect(await g.pin('smtp.example.com')).toBe('8.8.8.8');
    // a listed name is allowed whatever it resolves to (in-cluster service addresses change)
    expect(await g.pin('relay.mail.svc')).toBe('10.9.8.7');
    // listed addresses, in any spelling
    expect(await g.pin('sink.local')).toBe('127.0.0.1');
    expect(await g.pin('127.0.0.1')).toBe('127.0.0.1');
    for (const host of ['127.0.0.2', 'private.example.com', 'mixed.example.com']) {
      const failure = await g.pin(host).catch((e: unknown) => e);
      expect({ host, failure }).toEqual({ host, failure: new DeliveryFailure('ADDRESS_NOT_ALLOWED', true) });
      expect((failure as DeliveryFailure).permanent).toBe(true);
    }
    const unknown = await g.pin('nowhere.example.com').catch((e: unknown) => e);
    expect(unknown).toEqual(new DeliveryFailure('CONNECT ENOTFOUND'));
    expect((unknown as DeliveryFailure).permanent).toBe(false);
  });

  it('checkOnSave: an internal destination is a validation error naming the field; a name that does not resolve now passes', async () => {
    const g = guard([], { 'intranet.example.com': ['10.1.2.3'], 'smtp.example.com': ['8.8.8.8'], '127.0.0.1': ['127.0.0.1'] });
    await expect(g.checkOnSave('host', 'smtp.example.com')).resolves.toBeUndefined();
    await expect(g.checkOnSave('host', 'not-yet.example.com')).resolves.toBeUndefined();
    for (const host of ['intranet.example.com', '127.0.0.1']) {
      const error = await g.checkOnSave('host', host).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(AppException);
      expect((error as AppException).message).toMatch(/^host must resolve to public addresses only/);
      // no DNS oracle: the answer does not say what the name resolved to
      expect((error as AppException).message).not.toContain('10.1.2.3');
    }
  });
});

describe('DeliveryResolver', () => {
  it('an address resolves to itself and localhost from the hosts file (no DNS server asked)', async () => {
    const resolver = new DeliveryResolver();
    expect(await resolver.addresses('10.0.0.5')).toEqual(['10.0.0.5']);
    expect(await resolver.addresses('::1')).toEqual(['::1']);
    expect(await resolver.addresses('localhost')).toContain('127.0.0.1');
  });
});
