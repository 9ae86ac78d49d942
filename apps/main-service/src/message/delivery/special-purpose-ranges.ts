import ipaddr from 'ipaddr.js';

/**
 * The IANA IPv4 Special-Purpose Address Registry, and multicast (its own registry). Delivery refuses
 * them all, those marked globally reachable too (anycast and AS112 services): no mail or SMS provider
 * lives there.
 */
const IPV4_SPECIAL_PURPOSE: readonly (readonly [cidr: string, name: string])[] = [
  ['0.0.0.0/8', '"This network"'],
  ['0.0.0.0/32', '"This host on this network"'],
  ['10.0.0.0/8', 'Private-Use'],
  ['100.64.0.0/10', 'Shared Address Space'],
  ['127.0.0.0/8', 'Loopback'],
  ['169.254.0.0/16', 'Link Local'],
  ['172.16.0.0/12', 'Private-Use'],
  ['192.0.0.0/24', 'IETF Protocol Assignments'],
  ['192.0.0.0/29', 'IPv4 Service Continuity Prefix'],
  ['192.0.0.8/32', 'IPv4 dummy address'],
  ['192.0.0.9/32', 'Port Control Protocol Anycast'],
  ['192.0.0.10/32', 'Traversal Using Relays around NAT Anycast'],
  ['192.0.0.170/32', 'NAT64/DNS64 Discovery'],
  ['192.0.0.171/32', 'NAT64/DNS64 Discovery'],
  ['192.0.2.0/24', 'Documentation (TEST-NET-1)'],
  ['192.31.196.0/24', 'AS112-v4'],
  ['192.52.193.0/24', 'AMT'],
  ['192.88.99.0/24', 'Deprecated (6to4 Relay Anycast)'],
  ['192.168.0.0/16', 'Private-Use'],
  ['192.175.48.0/24', 'Direct Delegation AS112 Service'],
  ['198.18.0.0/15', 'Benchmarking'],
  ['198.51.100.0/24', 'Documentation (TEST-NET-2)'],
  ['203.0.113.0/24', 'Documentation (TEST-NET-3)'],
  ['224.0.0.0/4', 'Multicast'],
  ['240.0.0.0/4', 'Reserved'],
  ['255.255.255.255/32', 'Limited Broadcast'],
];

/**
 * The IANA IPv6 Special-Purpose Address Registry, and the deprecated or non-unicast blocks of the IPv6
 * address space that are not in it. The prefixes that embed an IPv4 address (IPv4-mapped,
 * IPv4-compatible, the NAT64 ones) are refused whatever they embed, a public IPv4 address too: delivery
 * never goes through a NAT64 gateway (an operator who needs one lists the host in DELIVERY_ALLOWED_HOSTS).
 */
const IPV6_SPECIAL_PURPOSE: readonly (readonly [cidr: string, name: string])[] = [
  ['::1/128', 'Loopback Address'],
  ['::/128', 'Unspecified Address'],
  ['::/96', 'IPv4-compatible Address (deprecated)'],
  ['::ffff:0:0/96', 'IPv4-mapped Address'],
  ['64:ff9b::/96', 'IPv4-IPv6 Translation'],
  ['64:ff9b:1::/48', 'IPv4-IPv6 Translation (local use)'],
  ['100::/64', 'Discard-Only Address Block'],
  ['100:0:0:1::/64', 'Dummy IPv6 Prefix'],
  ['2001::/23', 'IETF Protocol Assignments'],
  ['2001::/32', 'TEREDO'],
  ['2001:1::1/128', 'Port Control Protocol Anycast'],
  ['2001:1::2/128', 'Traversal Using Relays around NAT Anycast'],
  ['2001:1::3/128', 'DNS-SD Service Registration Protocol Anycast'],
  ['2001:2::/48', 'Benchmarking'],
  ['2001:3::/32', 'AMT'],
  ['2001:4:112::/48', 'AS112-v6'],
  ['2001:10::/28', 'Deprecated (previously ORCHID)'],
  ['2001:20::/28', 'ORCHIDv2'],
  ['2001:30::/28', 'Drone Remote ID Protocol Entity Tags (DETs) Prefix'],
  ['2001:db8::/32', 'Documentation'],
  ['2002::/16', '6to4'],
  ['2620:4f:8000::/48', 'Direct Delegation AS112 Service'],
  ['3fff::/20', 'Documentation'],
  ['5f00::/16', 'Segment Routing (SRv6) SIDs'],
  ['fc00::/7', 'Unique-Local'],
  ['fe80::/10', 'Link-Local Unicast'],
  ['fec0::/10', 'Site-Local (deprecated)'],
  ['ff00::/8', 'Multicast'],
];

/** Only this block of the IPv6 address space is global unicast; the rest is reserved or special. */
const IPV6_GLOBAL_UNICAST = ipaddr.IPv6.parseCIDR('2000::/3');
const NOT_GLOBAL_UNICAST = { cidr: 'outside 2000::/3', name: 'Not IPv6 global unicast' };

export interface SpecialRange {
  cidr: string;
  name: string;
}

interface CompiledRange<T> extends SpecialRange {
  range: [T, number];
}

const IPV4: CompiledRange<ipaddr.IPv4>[] = IPV4_SPECIAL_PURPOSE.map(([cidr, name]) => ({ cidr, name, range: ipaddr.IPv4.parseCIDR(cidr) }));
const IPV6: CompiledRange<ipaddr.IPv6>[] = IPV6_SPECIAL_PURPOSE.map(([cidr, name]) => ({ cidr, name, range: ipaddr.IPv6.parseCIDR(cidr) }));

/** The most specific of the ranges the address is in (a sub-block's name rather than its parent's). */
function narrowest<T>(ranges: CompiledRange<T>[], inRange: (range: [T, number]) => boolean): SpecialRange | undefined {
  const found = ranges.filter(({ range }) => inRange(range)).sort((a, b) => b.range[1] - a.range[1])[0];
  return found && { cidr: found.cidr, name: found.name };
}

/** The special-purpose range an address is in, or undefined for a public (global unicast) address. */
export function specialPurposeRange(address: ipaddr.IPv4 | ipaddr.IPv6): SpecialRange | undefined {
  if (address instanceof ipaddr.IPv4) return narrowest(IPV4, (range) => address.match(range));
  return narrowest(IPV6, (range) => address.match(range)) ?? (address.match(IPV6_GLOBAL_UNICAST) ? undefined : NOT_GLOBAL_UNICAST);
}
