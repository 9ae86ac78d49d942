import { clientAddressKey } from './client-address';

describe('clientAddressKey', () => {
  it('keeps IPv4 addresses as they are', () => {
    expect(clientAddressKey('203.0.113.7')).toBe('203.0.113.7');
  });

  it('counts an IPv4-mapped IPv6 address as its IPv4 address', () => {
    expect(clientAddressKey('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(clientAddressKey('::FFFF:cb00:7107')).toBe('203.0.113.7');
  });

  it('counts IPv6 addresses by their /64 network, whatever their spelling', () => {
    const key = '2001:db8:0:1::/64';
    for (const address of ['2001:db8:0:1::1', '2001:0db8:0000:0001:ffff:ffff:ffff:ffff', '2001:DB8::1:0:0:0:9', '2001:db8:0:1::1%eth0'])
      expect({ address, key: clientAddressKey(address) }).toEqual({ address, key });
    expect(clientAddressKey('2001:db8:0:2::1')).toBe('2001:db8:0:2::/64');
    expect(clientAddressKey('::1')).toBe('0:0:0:0::/64');
    expect(clientAddressKey('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
  });
});
