import { isIP, isIPv6 } from 'node:net';
import type { Request } from 'express';

/** The 8 16-bit groups of a valid IPv6 address (zone removed; an embedded IPv4 tail becomes two groups). */
function ipv6Groups(address: string): number[] {
  let text = address.toLowerCase();
  const v4Tail = /^(.*:)(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (v4Tail) {
    const [a, b, c, d] = v4Tail.slice(2).map(Number);
    text = `${v4Tail[1]}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [left, right] = text.split('::');
  const head = left ? left.split(':') : [];
  const tail = right ? right.split(':') : [];
  const zeros = right === undefined ? [] : new Array<string>(8 - head.length - tail.length).fill('0');
  return [...head, ...zeros, ...tail].map((group) => parseInt(group, 16));
}

/**
 * The key one client's token calls are counted under: its IPv4 address, or the /64 network of its
 * IPv6 address (one subscriber usually holds a whole /64, so counting single IPv6 addresses would
 * let one client rotate through billions of them). IPv4-mapped IPv6 counts as the IPv4 address.
 */
export function clientAddressKey(address: string): string {
  if (!isIPv6(address)) return address;
  const groups = ipv6Groups(address.split('%')[0]);
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff)
    return [groups[6] >> 8, groups[6] & 255, groups[7] >> 8, groups[7] & 255].join('.');
  return `${groups
    .slice(0, 4)
    .map((g) => g.toString(16))
    .join(':')}::/64`;
}

/**
 * The calling client as Express determined it under TRUST_PROXY (`request.ip`). A trusted proxy may
 * forward anything in X-Forwarded-For; what is not an IP address counts as the proxy's own address
 * rather than as a fresh client per made-up value.
 */
export function clientAddressOf(request: Request): string {
  const candidates = [request.ip, request.socket?.remoteAddress];
  const address = candidates.find((a): a is string => typeof a === 'string' && isIP(a.split('%')[0]) !== 0);
  return clientAddressKey(address ?? 'unknown');
}
