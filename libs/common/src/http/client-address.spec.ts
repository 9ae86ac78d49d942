import type { Request } from 'express';
import { clientAddressKey, clientAddressOf, clientKeyOf, parseIpAddress } from './client-address';

const request = (ip: string | undefined, remoteAddress = '127.0.0.1') => ({ ip, socket: { remoteAddress } }) as Request;

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
    expect(clientAddressKey('2001:db8:0:3::8.8.8.8')).toBe('2001:db8:0:3::/64');
  });
});

describe('clientAddressOf', () => {
  it('is the address Express determined, an IPv4-mapped one as IPv4', () => {
    expect(clientAddressOf(request('203.0.113.7'))).toBe('203.0.113.7');
    expect(clientAddressOf(request('2001:db8::7'))).toBe('2001:db8::7');
    expect(clientAddressOf(request('::ffff:203.0.113.8'))).toBe('203.0.113.8');
    expect(clientAddressOf(request('::FFFF:cb00:7108'))).toBe('203.0.113.8');
    expect(clientAddressOf(request('fe80::1%eth0'))).toBe('fe80::1');
    expect(clientAddressOf(request('::8.8.8.8'))).toBe('::8.8.8.8');
  });

  it("is the connection's address when Express's is not a strictly spelled address", () => {
    for (const ip of ['<script>', 'unknown', '127.1', '0x7f.0.0.1', '203.0.113.300', '[2001:db8::7]', '', undefined])
      expect({ ip, address: clientAddressOf(request(ip, '::ffff:198.51.100.4')) }).toEqual({ ip, address: '198.51.100.4' });
    expect(clientAddressOf(request('<script>', 'not-an-address'))).toBeUndefined();
  });
});

describe('clientKeyOf', () => {
  it("is the key of the client's address", () => {
    expect(clientKeyOf(request('2001:db8:0:1::5'))).toBe('2001:db8:0:1::/64');
    expect(clientKeyOf(request('::ffff:10.0.0.2'))).toBe('10.0.0.2');
    expect(clientKeyOf(request('made-up', '10.0.0.1'))).toBe('10.0.0.1');
  });
});

describe('parseIpAddress', () => {
  it('reads every address node:net accepts, an IPv4 tail after any IPv6 head too', () => {
    expect(parseIpAddress('192.0.2.1')?.toString()).toBe('192.0.2.1');
    const tails: [string, string][] = [
      ['::8.8.8.8', '0:0:0:0:0:0:808:808'],
      ['64:ff9b::8.8.8.8', '64:ff9b:0:0:0:0:808:808'],
      ['1::8.8.8.8', '1:0:0:0:0:0:808:808'],
      ['::ffff:127.0.0.1', '0:0:0:0:0:ffff:7f00:1'],
      ['1:2:3:4:5:6:8.8.8.8', '1:2:3:4:5:6:808:808'],
      ['fe80::1%eth-0', 'fe80:0:0:0:0:0:0:1'],
    ];
    for (const [text, groups] of tails) expect({ text, groups: parseIpAddress(text)?.toNormalizedString() }).toEqual({ text, groups });
  });

  it('reads nothing else', () => {
    for (const text of ['127.1', '0x7f.0.0.1', '2130706433', '010.0.0.1', '8.8.8', '[::1]', '::1/128', 'unknown', '', undefined, 7])
      expect({ text, parsed: parseIpAddress(text) }).toEqual({ text, parsed: undefined });
  });
});
