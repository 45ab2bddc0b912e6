import type { HttpClient, TokenServiceTestApp } from '@district/nest-common/testing';
import { AudioProxyMessages as M } from '../src/audio-proxy/audio-proxy.errors';
import { productionAudioProxyNetwork } from '../src/audio-proxy/audio-proxy.network';
import { checkResolved } from '../src/audio-proxy/target-rules';
import {
  proxyPath,
  standInNetwork,
  startClassroomForProxy,
  startStandIn,
  type StandIn,
} from './audio-proxy-support';

/**
 * The SSRF corpus (issue #13 item 3): every case refused with a 4xx and the proxy's message, and the canary —
 * a local HTTP server on 127.0.0.1 that a wrongly allowed request would reach — sees nothing it should not.
 *
 * Three apps: `production` runs the production network (no override: real DNS, production rules); `standIn`
 * lets loopback through for the allow-listed names mapped to the canary (so a literal loopback host that got
 * past the host rule would really be fetched); `strict` keeps the production address rules behind a resolver
 * that maps allow-listed names to forbidden addresses (DNS pointing a cloud name at the inside).
 */
const MESSAGES = new Set<unknown>(Object.values(M).filter((m) => typeof m === 'string'));

let canary: StandIn;
let production: TokenServiceTestApp;
let standIn: TokenServiceTestApp;
let strict: TokenServiceTestApp;
const clients = new Map<TokenServiceTestApp, HttpClient>();
let P: number;

const STRICT_NAMES: Record<string, string[]> = {
  'drive.google.com': ['127.0.0.1'],
  'docs.google.com': ['10.0.0.5'],
  'www.dropbox.com': ['93.184.216.34', '127.0.0.1'],
  'dl.dropboxusercontent.com': ['169.254.169.254'],
  'onedrive.live.com': ['::1'],
  'api.onedrive.com': ['::ffff:127.0.0.1'],
  'district.sharepoint.com': ['fe80::1'],
  'lh3.googleusercontent.com': ['fc00::1'],
  'www.icloud.com': ['0.0.0.0'],
  'p1.icloud-content.com': ['64:ff9b::7f00:1'],
  'a.files.1drv.com': ['2002:7f00:1::1'],
  '1drv.ms': ['192.168.0.10'],
  'dropbox.com': ['100.64.0.1'],
  'drive.usercontent.google.com': ['224.0.0.251'],
  'icloud.com': ['ff02::1'],
  'dl.dropbox.com': ['::'],
  'x.dropboxusercontent.com': ['fd00:ec2::254'],
};

beforeAll(async () => {
  canary = await startStandIn({
    '/to': (req, res) => {
      const target = new URL(req.url ?? '/', 'http://x').searchParams.get('u');
      res.writeHead(302, target === null ? {} : { location: target }).end();
    },
  });
  P = canary.port;
  production = await startClassroomForProxy();
  standIn = await startClassroomForProxy(
    standInNetwork({
      'drive.google.com': ['127.0.0.1'],
      'www.dropbox.com': ['127.0.0.1'],
      'docs.google.com': ['10.0.0.5'],
    }),
  );
  strict = await startClassroomForProxy(standInNetwork(STRICT_NAMES, []));
  for (const app of [production, standIn, strict]) clients.set(app, (await app.signIn('student')).client);
});
afterAll(async () => {
  await Promise.all([production, standIn, strict].map((app) => app?.close()));
  await canary?.close();
});
beforeEach(() => {
  canary.seen.length = 0;
});

async function expectRefused(app: TokenServiceTestApp, link: string, status: 400 | 403 | 502): Promise<void> {
  const res = await clients.get(app)!.get<{ message: string }>(proxyPath(link));
  expect({ link, status: res.status }).toEqual({ link, status });
  expect(MESSAGES).toContain(res.body.message);
  // Only the redirecting hop of the canary may have been asked; never anything behind it.
  expect(canary.seen.filter((r) => !r.url.startsWith('/to'))).toEqual([]);
}

/** Literal hosts and their spellings, private ranges, name tricks: refused by the host rule before any lookup. */
const literalCases: Array<[string, () => string, 400 | 403]> = [
  ['loopback', () => `http://127.0.0.1:${P}/a.mp3`, 403],
  ['localhost', () => `http://localhost:${P}/a.mp3`, 403],
  ['LOCALHOST upper case', () => `http://LOCALHOST:${P}/a.mp3`, 403],
  ['decimal 2130706433', () => `http://2130706433:${P}/a.mp3`, 403],
  ['octal 0177.0.0.1', () => `http://0177.0.0.1:${P}/a.mp3`, 403],
  ['hex 0x7f000001', () => `http://0x7f000001:${P}/a.mp3`, 403],
  ['mixed hex 0x7f.0.0.1', () => `http://0x7f.0.0.1:${P}/a.mp3`, 403],
  ['short 127.1', () => `http://127.1:${P}/a.mp3`, 403],
  ['short 127.0.1', () => `http://127.0.1:${P}/a.mp3`, 403],
  ['trailing dot 127.0.0.1.', () => `http://127.0.0.1.:${P}/a.mp3`, 403],
  ['0 (0.0.0.0)', () => `http://0:${P}/a.mp3`, 403],
  ['0.0.0.0', () => `http://0.0.0.0:${P}/a.mp3`, 403],
  ['IPv6 [::1]', () => `http://[::1]:${P}/a.mp3`, 403],
  ['IPv4-mapped [::ffff:127.0.0.1]', () => `http://[::ffff:127.0.0.1]:${P}/a.mp3`, 403],
  ['IPv4-mapped long form', () => `http://[0:0:0:0:0:ffff:7f00:1]:${P}/a.mp3`, 403],
  ['IPv6 unspecified [::]', () => `http://[::]:${P}/a.mp3`, 403],
  ['link-local [fe80::1]', () => 'http://[fe80::1]/a.mp3', 403],
  ['unique-local [fc00::1]', () => 'http://[fc00::1]/a.mp3', 403],
  ['unique-local [fd12:3456::1]', () => 'http://[fd12:3456::1]/a.mp3', 403],
  ['cloud metadata 169.254.169.254', () => 'http://169.254.169.254/latest/meta-data/', 403],
  ['cloud metadata IPv6 [fd00:ec2::254]', () => 'http://[fd00:ec2::254]/latest/meta-data/', 403],
  ['private 10.0.0.1', () => 'http://10.0.0.1/a.mp3', 403],
  ['private 172.16.0.1', () => 'http://172.16.0.1/a.mp3', 403],
  ['private 192.168.1.1', () => 'http://192.168.1.1/a.mp3', 403],
  ['carrier-grade NAT 100.64.0.1', () => 'http://100.64.0.1/a.mp3', 403],
  ['multicast 224.0.0.1', () => 'http://224.0.0.1/a.mp3', 403],
  ['broadcast 255.255.255.255', () => 'http://255.255.255.255/a.mp3', 403],
  ['public address literal', () => 'http://93.184.216.34/a.mp3', 403],
  ['name with an address in it', () => `http://127.0.0.1.nip.io:${P}/a.mp3`, 403],
  ['allow-listed name as a prefix', () => 'https://drive.google.com.evil.test/a.mp3', 403],
  ['allow-listed suffix without its dot', () => 'https://evilgoogleusercontent.com/a.mp3', 403],
  ['userinfo: allow-listed name before @', () => `http://drive.google.com@127.0.0.1:${P}/a.mp3`, 400],
  ['userinfo: user:pass on an allow-listed host', () => 'https://user:pass@drive.google.com/a.mp3', 400],
  ['fragment hiding the host', () => `http://127.0.0.1:${P}#@drive.google.com/a.mp3`, 403],
  ['backslash hiding the host', () => `http://127.0.0.1:${P}\\@drive.google.com/a.mp3`, 403],
  ['encoded slash in userinfo', () => `http://drive.google.com%2F@127.0.0.1:${P}/a.mp3`, 400],
  ['scheme file:', () => 'file:///etc/passwd', 400],
  ['scheme ftp:', () => 'ftp://drive.google.com/a.mp3', 400],
  ['scheme gopher:', () => `gopher://127.0.0.1:${P}/_GET%20/`, 400],
  ['scheme data:', () => 'data:audio/mpeg;base64,SUQz', 400],
  ['scheme javascript:', () => 'javascript:alert(1)', 400],
  ['scheme dict:', () => `dict://127.0.0.1:${P}/info`, 400],
  ['scheme ws:', () => 'ws://drive.google.com/a.mp3', 400],
  ['protocol-relative', () => `//127.0.0.1:${P}/a.mp3`, 400],
  ['not a URL', () => 'not a url', 400],
];

describe('the SSRF corpus: literal hosts, spellings, tricks and schemes', () => {
  it.each(literalCases)('refuses %s with the production network', async (_name, link, status) => {
    await expectRefused(production, link(), status);
  });
  it.each(literalCases)(
    'refuses %s even where loopback addresses are let through',
    async (_name, link, status) => {
      await expectRefused(standIn, link(), status);
    },
  );
});

describe('the SSRF corpus: allow-listed names that resolve to forbidden addresses', () => {
  it.each(Object.entries(STRICT_NAMES))('refuses %s resolving to %j', async (name) => {
    const res = await clients.get(strict)!.get<{ message: string }>(proxyPath(`http://${name}:${P}/a.mp3`));
    expect({ name, status: res.status, message: res.body.message }).toEqual({
      name,
      status: 403,
      message: M.addressNotAllowed,
    });
    expect(canary.seen).toEqual([]);
  });
});

describe('the SSRF corpus: redirects, each hop checked again', () => {
  const redirect = (target: string) => `http://drive.google.com:${P}/to?u=${encodeURIComponent(target)}`;
  const cases: Array<[string, () => string, 400 | 403 | 502]> = [
    ['to loopback', () => `http://127.0.0.1:${P}/a.mp3`, 403],
    ['to localhost', () => `http://localhost:${P}/a.mp3`, 403],
    ['to the cloud metadata address', () => 'http://169.254.169.254/latest/meta-data/', 403],
    ['to [::1]', () => `http://[::1]:${P}/a.mp3`, 403],
    ['to a decimal loopback', () => `http://2130706433:${P}/a.mp3`, 403],
    ['to a protocol-relative loopback', () => `//127.0.0.1:${P}/a.mp3`, 403],
    ['off the list', () => `http://evil.test:${P}/a.mp3`, 403],
    [
      'to an allow-listed name that resolves to a private address',
      () => `http://docs.google.com:${P}/a.mp3`,
      403,
    ],
    ['to file:', () => 'file:///etc/passwd', 400],
    ['to gopher:', () => `gopher://127.0.0.1:${P}/_x`, 400],
    ['with userinfo', () => `http://user@www.dropbox.com:${P}/a.mp3`, 400],
  ];
  it.each(cases)('refuses a redirect %s', async (_name, target, status) => {
    await expectRefused(standIn, redirect(target()), status);
    expect(canary.seen.map((r) => r.url)).toEqual([
      new URL(redirect(target())).pathname + new URL(redirect(target())).search,
    ]);
  });

  it('refuses a redirect without a Location', async () => {
    const res = await clients
      .get(standIn)!
      .get<{ message: string }>(proxyPath(`http://drive.google.com:${P}/to`));
    expect(res.status).toBe(502);
    expect(res.body.message).toBe(M.badRedirect);
  });
});

describe('the production network', () => {
  it('allows no loopback: no address class beyond public, no plain HTTP, no address on the list', () => {
    expect(productionAudioProxyNetwork.extraAddressClasses).toEqual([]);
    expect(productionAudioProxyNetwork.plainHttp).toBe(false);
    expect(
      productionAudioProxyNetwork.allowList.filter((h) => /^[\d.:[\]]+$/.test(h) || h.includes('localhost')),
    ).toEqual([]);
  });

  it('refuses what the real resolver gives for localhost', async () => {
    const found = await productionAudioProxyNetwork.resolve('localhost');
    expect(found.length).toBeGreaterThan(0);
    expect(() => checkResolved(found, productionAudioProxyNetwork.extraAddressClasses)).toThrow(
      M.addressNotAllowed,
    );
  });

  it('refuses other ports and fetches nothing for them', async () => {
    for (const link of [`http://drive.google.com:${P}/a.mp3`, 'https://drive.google.com:8443/a.mp3']) {
      const res = await clients.get(production)!.get<{ message: string }>(proxyPath(link));
      expect(res.status).toBe(403);
      expect(res.body.message).toBe(M.portNotAllowed);
    }
    expect(canary.seen).toEqual([]);
  });
});
