import { BlockList, isIP } from 'node:net';

/**
 * What an IP address is, for the audio proxy's address rule: only `public` addresses may be fetched. The ranges
 * are the IANA special-purpose registries (IPv4 and IPv6); IPv6 outside global unicast (2000::/3) is `reserved`,
 * and every IPv6 form that embeds an IPv4 address (mapped, compatible, NAT64, 6to4, Teredo) is refused as such,
 * whatever the IPv4 inside it.
 */
export type AddressClass =
  | 'public'
  | 'unspecified'
  | 'loopback'
  | 'private'
  | 'linkLocal'
  | 'carrierGradeNat'
  | 'uniqueLocal'
  | 'siteLocal'
  | 'multicast'
  | 'broadcast'
  | 'documentation'
  | 'benchmarking'
  | 'ipv4Mapped'
  | 'ipv4Embedded'
  | 'reserved';

const RANGES: ReadonlyArray<[AddressClass, string, number, 'ipv4' | 'ipv6']> = [
  ['unspecified', '0.0.0.0', 8, 'ipv4'],
  ['private', '10.0.0.0', 8, 'ipv4'],
  ['carrierGradeNat', '100.64.0.0', 10, 'ipv4'],
  ['loopback', '127.0.0.0', 8, 'ipv4'],
  ['linkLocal', '169.254.0.0', 16, 'ipv4'],
  ['private', '172.16.0.0', 12, 'ipv4'],
  ['reserved', '192.0.0.0', 24, 'ipv4'],
  ['documentation', '192.0.2.0', 24, 'ipv4'],
  ['reserved', '192.88.99.0', 24, 'ipv4'],
  ['private', '192.168.0.0', 16, 'ipv4'],
  ['benchmarking', '198.18.0.0', 15, 'ipv4'],
  ['documentation', '198.51.100.0', 24, 'ipv4'],
  ['documentation', '203.0.113.0', 24, 'ipv4'],
  ['multicast', '224.0.0.0', 4, 'ipv4'],
  ['broadcast', '255.255.255.255', 32, 'ipv4'],
  ['reserved', '240.0.0.0', 4, 'ipv4'],
  ['unspecified', '::', 128, 'ipv6'],
  ['loopback', '::1', 128, 'ipv6'],
  ['ipv4Mapped', '::ffff:0:0', 96, 'ipv6'],
  ['ipv4Embedded', '::', 96, 'ipv6'],
  ['ipv4Embedded', '::ffff:0:0:0', 96, 'ipv6'],
  ['ipv4Embedded', '64:ff9b::', 96, 'ipv6'],
  ['ipv4Embedded', '64:ff9b:1::', 48, 'ipv6'],
  ['reserved', '100::', 64, 'ipv6'],
  ['ipv4Embedded', '2001::', 32, 'ipv6'],
  ['reserved', '2001::', 23, 'ipv6'],
  ['documentation', '2001:db8::', 32, 'ipv6'],
  ['ipv4Embedded', '2002::', 16, 'ipv6'],
  ['documentation', '3fff::', 20, 'ipv6'],
  ['uniqueLocal', 'fc00::', 7, 'ipv6'],
  ['linkLocal', 'fe80::', 10, 'ipv6'],
  ['siteLocal', 'fec0::', 10, 'ipv6'],
  ['multicast', 'ff00::', 8, 'ipv6'],
];

/** One BlockList per range, in the table's order (the first match names the class). */
const LISTS: ReadonlyArray<[AddressClass, BlockList, 'ipv4' | 'ipv6']> = RANGES.map(
  ([cls, net, prefix, type]) => {
    const list = new BlockList();
    list.addSubnet(net, prefix, type);
    return [cls, list, type];
  },
);

const GLOBAL_UNICAST = new BlockList();
GLOBAL_UNICAST.addSubnet('2000::', 3, 'ipv6');

/** The class of an IP address (dotted IPv4 or IPv6, brackets allowed); throws on anything that is not one. */
export function classifyAddress(address: string): AddressClass {
  const ip = address.startsWith('[') && address.endsWith(']') ? address.slice(1, -1) : address;
  const version = isIP(ip);
  if (version === 0) throw new TypeError(`not an IP address: ${address}`);
  const type = version === 4 ? 'ipv4' : 'ipv6';
  // BlockList matches IPv4 rules against IPv4-mapped IPv6 too; the IPv6 rules come first for IPv6 input.
  for (const [cls, list, listType] of LISTS) {
    if (listType === type && list.check(ip, type)) return cls;
  }
  if (type === 'ipv6' && !GLOBAL_UNICAST.check(ip, 'ipv6')) return 'reserved';
  return 'public';
}

/**
 * Parses an IPv4 address the way `inet_aton` (and the WHATWG URL parser) does: one to four parts, each decimal,
 * octal (leading 0) or hexadecimal (0x), the last part filling the remaining bytes (`127.1`, `2130706433`,
 * `0177.0.0.1`, `0x7f000001`), one trailing dot allowed. Returns the dotted quad, or null when the text is not
 * such a number (a name) — or `'invalid'` when it looks numeric but overflows (`256.0.0.1`, `0x1ffffffff`).
 */
export function parseIpv4Spelling(text: string): string | null | 'invalid' {
  const trimmed = text.endsWith('.') ? text.slice(0, -1) : text;
  const parts = trimmed.split('.');
  if (parts.length === 0 || parts.length > 4 || parts.some((p) => p === '')) return null;
  const values: number[] = [];
  for (const part of parts) {
    const value = parseIpv4Part(part);
    if (value === null) return null;
    values.push(value);
  }
  const last = values[values.length - 1]!;
  const head = values.slice(0, -1);
  if (head.some((v) => v > 255) || last >= 256 ** (5 - values.length)) return 'invalid';
  let n = last;
  head.forEach((v, i) => {
    n += v * 256 ** (3 - i);
  });
  return [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join('.');
}

function parseIpv4Part(part: string): number | null {
  const lower = part.toLowerCase();
  let digits: string;
  let radix: number;
  if (lower.startsWith('0x')) {
    digits = lower.slice(2);
    radix = 16;
    if (digits !== '' && !/^[0-9a-f]+$/.test(digits)) return null;
  } else if (lower.length > 1 && lower.startsWith('0')) {
    digits = lower.slice(1);
    radix = 8;
    if (!/^[0-7]+$/.test(digits)) return null;
  } else {
    digits = lower;
    radix = 10;
    if (!/^[0-9]+$/.test(digits)) return null;
  }
  if (digits === '') return 0;
  // Anything past 2^32 is out of range whatever its position; cap the digits so the number stays exact.
  const value = parseInt(digits.replace(/^0+(?=.)/, ''), radix);
  return Number.isSafeInteger(value) ? value : Number.MAX_SAFE_INTEGER;
}

/** A request host, canonical: a lower-case name without trailing dots, a dotted IPv4 or an unbracketed IPv6. */
export type CanonicalHost = { kind: 'name'; host: string } | { kind: 'ip'; host: string };

/**
 * The host of a URL (as `URL.hostname` gives it, or raw text) in one canonical spelling, so that every numeric
 * spelling of an address is seen as that address before any rule looks at it. Null for a host that is neither a
 * well-formed name nor an address (a numeric-looking host that overflows, stray characters).
 */
export function canonicalHost(raw: string): CanonicalHost | null {
  let host = raw.trim().toLowerCase();
  if (host.startsWith('[') && host.endsWith(']')) host = host.slice(1, -1);
  if (isIP(host) === 6) return { kind: 'ip', host: new URL(`http://[${host}]/`).hostname.slice(1, -1) };
  const ipv4 = parseIpv4Spelling(host);
  if (ipv4 === 'invalid') return null;
  if (ipv4 !== null) return { kind: 'ip', host: ipv4 };
  host = host.replace(/\.+$/, '');
  const labels = host.split('.');
  if (host.length === 0 || host.length > 253) return null;
  if (!labels.every((l) => /^[a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?$/.test(l))) return null;
  // WHATWG: a host whose last label is numeric is an IPv4 address, or invalid.
  if (/^(0x[0-9a-f]*|[0-9]+)$/.test(labels[labels.length - 1]!)) return null;
  return { kind: 'name', host };
}
