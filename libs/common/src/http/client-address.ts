import { isIP } from 'node:net';
import type { Request } from 'express';
import ipaddr from 'ipaddr.js';

/** The dotted IPv4 tail an IPv6 address may end in (`::ffff:192.0.2.1`). */
const IPV4_TAIL = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/;
const asGroups = (_: string, a: string, b: string, c: string, d: string) =>
  `${((Number(a) << 8) | Number(b)).toString(16)}:${((Number(c) << 8) | Number(d)).toString(16)}`;

/**
 * A strictly spelled IPv4 or IPv6 address (node:net's rules; an IPv6 zone is dropped), parsed; undefined
 * for anything else. ipaddr.js alone would take forms such as `127.1` or `0x7f.0.0.1`, and its 1.9 misreads
 * some IPv4 tails (`::8.8.8.8`, `64:ff9b::8.8.8.8`), so an IPv6 address's tail is read as two groups first.
 */
export function parseIpAddress(text: unknown): ipaddr.IPv4 | ipaddr.IPv6 | undefined {
  if (typeof text !== 'string') return undefined;
  const bare = text.split('%')[0];
  const version = isIP(bare);
  if (version === 4) return ipaddr.IPv4.parse(bare);
  const groups = bare.replace(IPV4_TAIL, asGroups);
  return version === 6 && ipaddr.IPv6.isValid(groups) ? ipaddr.IPv6.parse(groups) : undefined;
}

/** An IPv4-mapped IPv6 address as its IPv4 address; any other address as it is. */
const unmapped = (address: ipaddr.IPv4 | ipaddr.IPv6): ipaddr.IPv4 | ipaddr.IPv6 =>
  address instanceof ipaddr.IPv6 && address.isIPv4MappedAddress() ? address.toIPv4Address() : address;

/** `text` (spelled as given, without an IPv6 zone) when it is an address; an IPv4-mapped one as its IPv4 address. */
function addressIn(text: unknown): string | undefined {
  const parsed = parseIpAddress(text);
  if (!parsed) return undefined;
  const address = unmapped(parsed);
  return address instanceof ipaddr.IPv4 ? address.toString() : (text as string).split('%')[0];
}

/**
 * The calling client as Express determined it under TRUST_PROXY (`request.ip`), an IPv4-mapped IPv6
 * address as its IPv4 address. A trusted proxy may forward anything in X-Forwarded-For: what is not an
 * IP address counts as the connection's own address (the proxy's) rather than as a fresh client per
 * made-up value. Undefined only when neither is an address (a closed socket).
 */
export function clientAddressOf(request: Request): string | undefined {
  return addressIn(request.ip) ?? addressIn(request.socket?.remoteAddress);
}

/**
 * The key every per-address limit counts a client under: its IPv4 address, or the /64 network of its
 * IPv6 address (one subscriber usually holds a whole /64, so counting single IPv6 addresses would let
 * one client rotate through billions of them). An IPv4-mapped IPv6 address counts as its IPv4 address.
 */
export function clientAddressKey(address: string): string {
  const parsed = parseIpAddress(address);
  if (!parsed) return address;
  const client = unmapped(parsed);
  if (client instanceof ipaddr.IPv4) return client.toString();
  return `${client.parts
    .slice(0, 4)
    .map((part) => part.toString(16))
    .join(':')}::/64`;
}

/** The per-address limits' key of the calling client (clientAddressOf, then clientAddressKey). */
export const clientKeyOf = (request: Request): string => clientAddressKey(clientAddressOf(request) ?? 'unknown');
