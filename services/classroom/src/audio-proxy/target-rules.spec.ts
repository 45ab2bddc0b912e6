import fc from 'fast-check';
import { AudioProxyError } from './audio-proxy.errors';
import { productionAudioProxyNetwork } from './audio-proxy.network';
import { checkResolved, checkTarget, parseAudioLink } from './target-rules';
import { headersForBrowser, mediaType, rangeToForward, totalFromContentRange } from './upstream-answer';

const reason = (f: () => unknown) => {
  try {
    f();
  } catch (error) {
    return error instanceof AudioProxyError ? error.reason : 'other';
  }
  return 'passed';
};

describe('checkTarget with the production network', () => {
  const check = (link: string) => checkTarget(parseAudioLink(link), productionAudioProxyNetwork);

  it('upgrades plain http to https on an allow-listed host, drops the fragment, canonicalises the host', () => {
    expect(check('http://Drive.Google.com./uc?id=1#t=3').href).toBe('https://drive.google.com/uc?id=1');
  });

  it('refuses addresses, other hosts, ports, credentials and schemes', () => {
    expect(reason(() => check('https://127.0.0.1/a.mp3'))).toBe('addressNotAllowed');
    expect(reason(() => check('https://93.184.216.34/a.mp3'))).toBe('hostNotAllowed');
    expect(reason(() => check('https://example.org/a.mp3'))).toBe('hostNotAllowed');
    expect(reason(() => check('https://drive.google.com:444/a.mp3'))).toBe('portNotAllowed');
    expect(reason(() => check('https://u:p@drive.google.com/a.mp3'))).toBe('credentials');
    expect(reason(() => check('ftp://drive.google.com/a.mp3'))).toBe('unsupportedScheme');
    expect(reason(() => check('nonsense'))).toBe('invalidUrl');
  });

  it('never lets any IPv4 address through, whatever its spelling', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 0xffffffff }), fc.constantFrom(10, 16), (n, radix) => {
        const host = radix === 10 ? String(n) : `0x${n.toString(16)}`;
        expect(['addressNotAllowed', 'hostNotAllowed']).toContain(
          reason(() => check(`https://${host}/a.mp3`)),
        );
      }),
    );
  });
});

describe('checkResolved', () => {
  it('refuses a name when any of its addresses is forbidden, and one with none', () => {
    const v4 = (address: string) => ({ address, family: 4 as const });
    expect(checkResolved([v4('8.8.8.8'), v4('1.1.1.1')], [])).toHaveLength(2);
    expect(reason(() => checkResolved([v4('8.8.8.8'), v4('10.0.0.1')], []))).toBe('addressNotAllowed');
    expect(reason(() => checkResolved([{ address: '::ffff:8.8.8.8', family: 6 }], []))).toBe(
      'addressNotAllowed',
    );
    expect(reason(() => checkResolved([], []))).toBe('unreachable');
    expect(checkResolved([v4('127.0.0.1')], ['loopback'])).toHaveLength(1);
  });
});

describe('what passes between browser and host', () => {
  it('forwards one well-formed byte range only', () => {
    expect(rangeToForward('bytes=0-')).toBe('bytes=0-');
    expect(rangeToForward('bytes=100-199')).toBe('bytes=100-199');
    expect(rangeToForward('bytes=-500')).toBe('bytes=-500');
    for (const bad of ['bytes=1-2,3-4', 'items=0-1', 'bytes=a-b', 'bytes=-', undefined, ['bytes=0-']]) {
      expect(rangeToForward(bad)).toBeUndefined();
    }
  });

  it('reads media types and whole sizes', () => {
    expect(mediaType('Audio/MPEG; charset=binary')).toBe('audio/mpeg');
    expect(mediaType('text/html')).toBe('text/html');
    expect(mediaType('audio/mpeg\r\nx')).toBe('');
    expect(totalFromContentRange('bytes 0-99/52428801')).toBe(52428801);
    expect(totalFromContentRange('bytes 0-99/*')).toBeNull();
  });

  it('keeps only the playback headers of the host', () => {
    const out = headersForBrowser(
      {
        'content-length': '100',
        'content-range': 'bytes 0-99/1000',
        'accept-ranges': 'bytes',
        etag: '"abc"',
        'last-modified': 'Wed, 21 Oct 2026 07:28:00 GMT',
        'set-cookie': ['a=b'],
        'access-control-allow-origin': '*',
        location: 'http://x',
        'strict-transport-security': 'max-age=1',
      },
      'audio/mpeg',
    );
    expect(Object.keys(out).sort()).toEqual([
      'accept-ranges',
      'cache-control',
      'content-length',
      'content-range',
      'content-security-policy',
      'content-type',
      'etag',
      'last-modified',
      'x-content-type-options',
    ]);
  });
});
