import fc from 'fast-check';
import { canonicalHost, classifyAddress, parseIpv4Spelling } from './address-rules';

const u32 = fc.integer({ min: 0, max: 0xffffffff });
const dotted = (n: number) => [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join('.');
const spell = (v: number, radix: 'dec' | 'oct' | 'hex') =>
  radix === 'dec' ? String(v) : radix === 'oct' ? `0${v.toString(8)}` : `0x${v.toString(16)}`;
const radix = fc.constantFrom<'dec' | 'oct' | 'hex'>('dec', 'oct', 'hex');

/** An IPv4 address written as 1–4 parts (inet_aton), each part in its own radix. */
const spelling = fc
  .tuple(u32, fc.integer({ min: 1, max: 4 }), fc.array(radix, { minLength: 4, maxLength: 4 }))
  .map(([n, parts, radixes]) => {
    const bytes = [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255];
    const head = bytes.slice(0, parts - 1);
    const rest = bytes.slice(parts - 1).reduce((acc, b) => acc * 256 + b, 0);
    return { n, text: [...head, rest].map((v, i) => spell(v, radixes[i]!)).join('.') };
  });

describe('parseIpv4Spelling', () => {
  it('reads the usual SSRF spellings of 127.0.0.1', () => {
    for (const text of [
      '127.0.0.1',
      '2130706433',
      '0177.0.0.1',
      '0x7f000001',
      '0x7f.0.0.1',
      '127.1',
      '127.0.1',
      '0177.1',
      '127.0.0.1.',
      '0x7F.1',
    ]) {
      expect([text, parseIpv4Spelling(text)]).toEqual([text, '127.0.0.1']);
    }
    expect(parseIpv4Spelling('0')).toBe('0.0.0.0');
  });

  it('reads every 1–4 part spelling as the address it stands for, as the WHATWG URL parser does', () => {
    fc.assert(
      fc.property(spelling, ({ n, text }) => {
        expect(parseIpv4Spelling(text)).toBe(dotted(n));
        expect(new URL(`http://${text}/`).hostname).toBe(dotted(n));
      }),
    );
  });

  it('refuses numbers out of range and leaves names alone', () => {
    for (const text of [
      '256.0.0.1',
      '4294967296',
      '0x100000000',
      '1.2.3.256',
      '1.2.65536',
      '0x1ffffffffffffffffff',
    ]) {
      expect([text, parseIpv4Spelling(text)]).toEqual([text, 'invalid']);
    }
    for (const text of ['drive.google.com', '1.2.3.4.5', '08.1.1.1', '0x7g.1', 'a.1', '']) {
      expect([text, parseIpv4Spelling(text)]).toEqual([text, null]);
    }
  });
});

describe('canonicalHost', () => {
  it('gives one spelling for names (lower case, no trailing dot) and addresses', () => {
    expect(canonicalHost('Drive.Google.COM.')).toEqual({ kind: 'name', host: 'drive.google.com' });
    expect(canonicalHost('0x7f000001')).toEqual({ kind: 'ip', host: '127.0.0.1' });
    expect(canonicalHost('[0:0:0:0:0:ffff:7f00:1]')).toEqual({ kind: 'ip', host: '::ffff:7f00:1' });
    expect(canonicalHost('[::FFFF:127.0.0.1]')).toEqual({ kind: 'ip', host: '::ffff:7f00:1' });
    expect(canonicalHost('evil.0x7f')).toBeNull();
    expect(canonicalHost('a b.com')).toBeNull();
    expect(canonicalHost('')).toBeNull();
  });

  it('never lets a numeric spelling pass as a name', () => {
    fc.assert(
      fc.property(spelling, fc.boolean(), ({ n, text }, upper) => {
        expect(canonicalHost(upper ? text.toUpperCase() : text)).toEqual({ kind: 'ip', host: dotted(n) });
      }),
    );
  });
});

describe('classifyAddress', () => {
  it('names the special ranges', () => {
    const table: Array<[string, string]> = [
      ['127.0.0.1', 'loopback'],
      ['127.255.255.254', 'loopback'],
      ['10.1.2.3', 'private'],
      ['172.31.255.255', 'private'],
      ['192.168.0.1', 'private'],
      ['169.254.169.254', 'linkLocal'],
      ['100.64.0.1', 'carrierGradeNat'],
      ['0.0.0.0', 'unspecified'],
      ['224.0.0.251', 'multicast'],
      ['255.255.255.255', 'broadcast'],
      ['240.0.0.1', 'reserved'],
      ['192.0.2.1', 'documentation'],
      ['198.18.0.1', 'benchmarking'],
      ['::', 'unspecified'],
      ['::1', 'loopback'],
      ['::ffff:127.0.0.1', 'ipv4Mapped'],
      ['::ffff:8.8.8.8', 'ipv4Mapped'],
      ['::127.0.0.1', 'ipv4Embedded'],
      ['64:ff9b::7f00:1', 'ipv4Embedded'],
      ['2002:7f00:1::1', 'ipv4Embedded'],
      ['2001:0:4136:e378::1', 'ipv4Embedded'],
      ['fc00::1', 'uniqueLocal'],
      ['fd00:ec2::254', 'uniqueLocal'],
      ['fe80::1', 'linkLocal'],
      ['fec0::1', 'siteLocal'],
      ['ff02::1', 'multicast'],
      ['2001:db8::1', 'documentation'],
      ['4000::1', 'reserved'],
      ['8.8.8.8', 'public'],
      ['142.250.74.14', 'public'],
      ['172.32.0.1', 'public'],
      ['2607:f8b0:4004:c1b::64', 'public'],
      ['[2a00:1450:4001:82b::200e]', 'public'],
    ];
    for (const [address, cls] of table) expect([address, classifyAddress(address)]).toEqual([address, cls]);
    expect(() => classifyAddress('drive.google.com')).toThrow(TypeError);
  });

  it('puts every address of the private, loopback and link-local blocks in its class', () => {
    const within = (base: number, bits: number) =>
      fc.integer({ min: 0, max: 2 ** (32 - bits) - 1 }).map((o) => dotted(base + o));
    const blocks: Array<[number, number, string]> = [
      [0x0a000000, 8, 'private'],
      [0xac100000, 12, 'private'],
      [0xc0a80000, 16, 'private'],
      [0x7f000000, 8, 'loopback'],
      [0xa9fe0000, 16, 'linkLocal'],
      [0xe0000000, 4, 'multicast'],
    ];
    for (const [base, bits, cls] of blocks) {
      fc.assert(fc.property(within(base, bits), (ip) => expect(classifyAddress(ip)).toBe(cls)));
    }
  });

  it('refuses every IPv4-mapped IPv6 address, whatever the IPv4 inside', () => {
    fc.assert(
      fc.property(u32, (n) => {
        expect(classifyAddress(`::ffff:${dotted(n)}`)).toBe('ipv4Mapped');
        const hex = `::ffff:${(n >>> 16).toString(16)}:${(n & 0xffff).toString(16)}`;
        expect(classifyAddress(hex)).toBe('ipv4Mapped');
      }),
    );
  });

  it('calls public only global unicast addresses outside every special range', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 0xffff }), { minLength: 8, maxLength: 8 }), (groups) => {
        const ip = groups.map((g) => g.toString(16)).join(':');
        const cls = classifyAddress(ip);
        if (cls === 'public') expect(groups[0]! >> 13).toBe(1);
        if (groups[0]! >= 0xfc00 && groups[0]! <= 0xfdff) expect(cls).toBe('uniqueLocal');
      }),
    );
  });
});
