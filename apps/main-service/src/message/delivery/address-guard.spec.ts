import { AppException, parseIpAddress } from '@app/common';
import { AddressGuard, DeliveryResolver, hostOfUrl, isPublicAddress } from './address-guard';
import { DeliveryFailure } from './delivery-failure';
import { specialPurposeRange } from './special-purpose-ranges';
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

/** An address inside each range of the IANA special-purpose registries (and the other non-public blocks), and its range. */
const SPECIAL: [address: string, cidr: string][] = [
  ['0.1.2.3', '0.0.0.0/8'],
  ['0.0.0.0', '0.0.0.0/32'],
  ['10.255.255.254', '10.0.0.0/8'],
  ['100.127.255.254', '100.64.0.0/10'],
  ['127.0.0.1', '127.0.0.0/8'],
  ['127.255.0.9', '127.0.0.0/8'],
  ['169.254.169.254', '169.254.0.0/16'],
  ['172.31.255.1', '172.16.0.0/12'],
  ['192.0.0.200', '192.0.0.0/24'],
  ['192.0.0.7', '192.0.0.0/29'],
  ['192.0.0.8', '192.0.0.8/32'],
  ['192.0.0.9', '192.0.0.9/32'],
  ['192.0.0.10', '192.0.0.10/32'],
  ['192.0.0.170', '192.0.0.170/32'],
  ['192.0.0.171', '192.0.0.171/32'],
  ['192.0.2.1', '192.0.2.0/24'],
  ['192.31.196.1', '192.31.196.0/24'],
  ['192.52.193.1', '192.52.193.0/24'],
  ['192.88.99.1', '192.88.99.0/24'],
  ['192.168.1.10', '192.168.0.0/16'],
  ['192.175.48.6', '192.175.48.0/24'],
  ['198.18.0.1', '198.18.0.0/15'],
  ['198.19.255.254', '198.18.0.0/15'],
  ['198.51.100.7', '198.51.100.0/24'],
  ['203.0.113.7', '203.0.113.0/24'],
  ['224.0.0.1', '224.0.0.0/4'],
  ['239.255.255.250', '224.0.0.0/4'],
  ['240.0.0.1', '240.0.0.0/4'],
  ['255.255.255.254', '240.0.0.0/4'],
  ['255.255.255.255', '255.255.255.255/32'],
  ['::1', '::1/128'],
  ['::', '::/128'],
  // the prefixes that embed an IPv4 address are refused whatever they embed, a public address too
  ['::7f00:1', '::/96'],
  ['::8.8.8.8', '::/96'],
  ['::ffff:127.0.0.1', '::ffff:0:0/96'],
  ['::ffff:8.8.8.8', '::ffff:0:0/96'],
  ['64:ff9b::a9fe:a9fe', '64:ff9b::/96'],
  ['64:ff9b::8.8.8.8', '64:ff9b::/96'],
  ['64:ff9b:1::a00:1', '64:ff9b:1::/48'],
  ['64:ff9b:1::a9fe:a9fe', '64:ff9b:1::/48'],
  ['64:ff9b:1:ffff::808:808', '64:ff9b:1::/48'],
  ['100::1', '100::/64'],
  ['100::ffff:ffff:ffff:ffff', '100::/64'],
  ['100:0:0:1::1', '100:0:0:1::/64'],
  ['2001:1ff:ffff::1', '2001::/23'],
  ['2001:1::4', '2001::/23'],
  ['2001:0:4136:e378::1', '2001::/32'],
  ['2001:1::1', '2001:1::1/128'],
  ['2001:1::2', '2001:1::2/128'],
  ['2001:1::3', '2001:1::3/128'],
  ['2001:2::1', '2001:2::/48'],
  ['2001:3::1', '2001:3::/32'],
  ['2001:4:112::1', '2001:4:112::/48'],
  ['2001:10::1', '2001:10::/28'],
  ['2001:2f::1', '2001:20::/28'],
  ['2001:30::1', '2001:30::/28'],
  ['2001:db8::1', '2001:db8::/32'],
  ['2002:c000:204::1', '2002::/16'],
  ['2620:4f:8000::42', '2620:4f:8000::/48'],
  ['3fff:fff::1', '3fff::/20'],
  ['5f00::1', '5f00::/16'],
  ['fc00::1', 'fc00::/7'],
  ['fdff::1', 'fc00::/7'],
  ['fe80::1', 'fe80::/10'],
  ['fe80::1%eth0', 'fe80::/10'],
  ['febf::1', 'fe80::/10'],
  ['fec0::1', 'fec0::/10'],
  ['ff02::1', 'ff00::/8'],
  // the rest of the IPv6 space outside global unicast is reserved: none of it is a public destination
  ['4000::1', 'outside 2000::/3'],
  ['100:0:0:2::1', 'outside 2000::/3'],
  ['::1:0:0:1', 'outside 2000::/3'],
];

/** Public addresses, many just outside a special-purpose range. */
const PUBLIC = [
  '8.8.8.8',
  '1.1.1.1',
  '9.255.255.255',
  '11.0.0.1',
  '100.63.255.255',
  '100.128.0.0',
  '126.255.255.255',
  '128.0.0.1',
  '169.253.255.255',
  '172.15.255.255',
  '172.32.0.0',
  '192.0.1.1',
  '192.0.3.1',
  '192.88.98.1',
  '192.167.255.255',
  '192.169.0.1',
  '198.17.255.255',
  '198.20.0.0',
  '223.255.255.255',
  '2606:4700:4700::1111',
  '2a00:1450:4001:82a::200e',
  '2001:200::1',
  '2001:db9::1',
  '2003::1',
  '2620:4f:8001::1',
  '3fff:1000::1',
];

describe('special-purpose ranges', () => {
  it.each(SPECIAL)('%s is in %s and not public', (address, cidr) => {
    expect(specialPurposeRange(parseIpAddress(address)!)).toEqual({ cidr, name: expect.any(String) });
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each(PUBLIC)('%s is public', (address) => {
    expect(specialPurposeRange(parseIpAddress(address)!)).toBeUndefined();
    expect(isPublicAddress(address)).toBe(true);
  });

  it('what is not a strictly spelled address is not public', () => {
    for (const address of ['127.1', '0x7f.0.0.1', '2130706433', '010.0.0.1', '8.8.8', '[2606:4700:4700::1111]', 'not an address', ''])
      expect({ address, public: isPublicAddress(address) }).toEqual({ address, public: false });
  });
});

describe('hostOfUrl', () => {
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

describe('AddressGuard on the special-purpose ranges', () => {
  const REPORTED = ['64:ff9b:1::a00:1', '64:ff9b:1::a9fe:a9fe', '::7f00:1', 'fec0::1', '198.18.0.1', '100::1', '2001:2::1'];

  it('refuses the addresses ipaddr.js calls unicast, on save and on send, as the address or behind a name', async () => {
    const g = guard([], Object.fromEntries([...REPORTED.map((a) => [a, [a]]), ['nat64.example.com', ['8.8.8.8', '64:ff9b::808:808']]]));
    for (const host of [...REPORTED, 'nat64.example.com']) {
      const saved = await g.checkOnSave('host', host).catch((e: unknown) => e);
      expect({ host, saved }).toEqual({ host, saved: expect.any(AppException) });
      const sent = await g.pin(host).catch((e: unknown) => e);
      expect({ host, sent }).toEqual({ host, sent: new DeliveryFailure('ADDRESS_NOT_ALLOWED', true) });
    }
  });

  it('DELIVERY_ALLOWED_HOSTS still allows a listed address or name in them', async () => {
    const g = guard(['64:ff9b:0:0:0:0:808:808', 'nat64.example.com'], {
      '64:ff9b::808:808': ['64:ff9b::808:808'],
      'nat64.example.com': ['64:ff9b:1::a00:1'],
    });
    expect(await g.pin('64:ff9b::808:808')).toBe('64:ff9b::808:808');
    expect(await g.pin('nat64.example.com')).toBe('64:ff9b:1::a00:1');
    await expect(g.checkOnSave('host', 'nat64.example.com')).resolves.toBeUndefined();
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
