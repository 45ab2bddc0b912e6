import { waitFor, type HttpClient, type TokenServiceTestApp } from '@district/nest-common/testing';
import { AudioProxyMessages as M } from '../src/audio-proxy/audio-proxy.errors';
import {
  proxyPath,
  rawProxyGet,
  serveAudio,
  standInNetwork,
  startClassroomForProxy,
  startStandIn,
  type StandIn,
} from './audio-proxy-support';

/**
 * The audio proxy's memory of recently played small files (ADR 0025), against the local stand-in host: after a
 * file's first answer, one whole download keeps it, and its next Range requests are answered from memory — with
 * the same guard, rate limit, headers and range rules as a relayed answer.
 */
const FILE_CAP = 32 * 1024;
const TTL_MS = 1_500;
const RATE_LIMIT = 30;

let standIn: StandIn;
let app: TokenServiceTestApp;
let listener: HttpClient;
const on = (path: string) => `http://drive.google.com:${standIn.port}${path}`;
const hostAsked = (id: string) => standIn.seen.filter((r) => r.url.includes(id));

beforeAll(async () => {
  standIn = await startStandIn(
    {
      '/big': (req, res) => serveAudio(Buffer.alloc(FILE_CAP + 1, 0x42), req, res),
      '/redirect': (_req, res) =>
        void res.writeHead(302, { location: `http://docs.google.com:${standIn.port}/uc?id=landed` }).end(),
    },
    20 * 1024,
  );
  app = await startClassroomForProxy(
    standInNetwork({ 'drive.google.com': ['127.0.0.1'], 'docs.google.com': ['127.0.0.1'] }),
    {
      env: {
        CLASSROOM_AUDIO_PROXY_CACHE_BYTES: String(64 * 1024),
        CLASSROOM_AUDIO_PROXY_CACHE_FILE_BYTES: String(FILE_CAP),
        CLASSROOM_AUDIO_PROXY_CACHE_TTL_MS: String(TTL_MS),
        CLASSROOM_AUDIO_PROXY_RATE_LIMIT: String(RATE_LIMIT),
      },
    },
  );
  listener = (await app.signIn('student')).client;
});
afterAll(async () => {
  await app?.close();
  await standIn?.close();
});
beforeEach(() => {
  standIn.seen.length = 0;
});

/** Plays `id` once and waits until the proxy's background download of it has been answered by the host. */
async function playAndKeep(id: string): Promise<void> {
  const first = await rawProxyGet(app, listener, on(`/uc?id=${id}`), { range: 'bytes=0-99' });
  expect(first.status).toBe(206);
  await waitFor(() => hostAsked(id).some((r) => r.headers.range === undefined), 'the whole download');
  // The download's answer is in memory once the host's response is written; give the proxy a moment to settle it.
  await new Promise((resolve) => setTimeout(resolve, 100));
}

describe('the audio proxy keeps recently played small files', () => {
  it('downloads a played file once, whole, and answers its next ranges from memory', async () => {
    await playAndKeep('kept');
    const asked = hostAsked('kept').length;
    expect(hostAsked('kept').map((r) => r.headers.range)).toEqual(['bytes=0-99', undefined]);

    const middle = await rawProxyGet(app, listener, on('/uc?id=kept'), { range: 'bytes=1000-1999' });
    expect(middle.status).toBe(206);
    expect(middle.body?.equals(standIn.audio.subarray(1000, 2000))).toBe(true);
    expect(middle.headers.get('content-range')).toBe(`bytes 1000-1999/${standIn.audio.length}`);
    expect(middle.headers.get('content-length')).toBe('1000');
    expect(middle.headers.get('content-type')).toBe('audio/mpeg');
    expect(middle.headers.get('accept-ranges')).toBe('bytes');
    expect(middle.headers.get('etag')).toBe('"v1"');
    expect(middle.headers.get('x-content-type-options')).toBe('nosniff');
    expect(middle.headers.get('content-security-policy')).toBe("default-src 'none'; sandbox");
    // Nothing of the host's own headers: no cookie, no secret, no CORS grant.
    expect(middle.headers.get('set-cookie')).toBeNull();
    expect(middle.headers.get('x-upstream-secret')).toBeNull();
    expect(middle.headers.get('access-control-allow-origin')).toBeNull();

    const tail = await rawProxyGet(app, listener, on('/uc?id=kept'), { range: 'bytes=-10' });
    expect(tail.body?.equals(standIn.audio.subarray(-10))).toBe(true);
    const whole = await rawProxyGet(app, listener, on('/uc?id=kept'));
    expect(whole.status).toBe(200);
    expect(whole.body?.equals(standIn.audio)).toBe(true);
    expect(hostAsked('kept')).toHaveLength(asked);
  });

  it('answers a range past the end of a kept file with 416 and its message, and HEAD with headers only', async () => {
    await playAndKeep('edges');
    const past = await listener.get<{ message: string }>(proxyPath(on('/uc?id=edges')), {
      headers: { range: `bytes=${standIn.audio.length}-` },
    });
    expect(past.status).toBe(416);
    expect(past.body.message).toBe(M.rangeNotSatisfiable);
    const path = proxyPath(on('/uc?id=edges'));
    const cookie = listener.jar.header(new URL(path, app.runtime.publicUrl)) ?? '';
    const head = await fetch(`${app.url}${path}`, { method: 'HEAD', headers: { cookie } });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe(String(standIn.audio.length));
    expect(await head.text()).toBe('');
    expect(hostAsked('edges')).toHaveLength(2);
  });

  it('keeps a file reached through redirects under the link played, every hop checked on the way', async () => {
    const first = await rawProxyGet(app, listener, on('/redirect'));
    expect(first.status).toBe(200);
    await waitFor(
      () => standIn.seen.filter((r) => r.url === '/uc?id=landed').length === 2,
      'the whole download',
    );
    await new Promise((resolve) => setTimeout(resolve, 100));
    const again = await rawProxyGet(app, listener, on('/redirect'), { range: 'bytes=5-9' });
    expect(again.body?.equals(standIn.audio.subarray(5, 10))).toBe(true);
    expect(standIn.seen.map((r) => r.url)).toEqual([
      '/redirect',
      '/uc?id=landed',
      '/redirect',
      '/uc?id=landed',
    ]);
  });

  it('does not keep a file over the size limit: every request goes to the host', async () => {
    for (let i = 0; i < 3; i++) {
      const res = await rawProxyGet(app, listener, on('/big'), { range: 'bytes=0-9' });
      expect(res.status).toBe(206);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(standIn.seen.map((r) => r.headers.range)).toEqual(['bytes=0-9', 'bytes=0-9', 'bytes=0-9']);
  });

  it('asks the host again once a kept file has had its time', async () => {
    await playAndKeep('aging');
    await new Promise((resolve) => setTimeout(resolve, TTL_MS + 100));
    const res = await rawProxyGet(app, listener, on('/uc?id=aging'), { range: 'bytes=0-9' });
    expect(res.status).toBe(206);
    expect(
      hostAsked('aging')
        .map((r) => r.headers.range)
        .slice(0, 3),
    ).toEqual(['bytes=0-99', undefined, 'bytes=0-9']);
  });

  it('still answers 401 to anonymous callers and counts kept answers in the rate limit', async () => {
    await playAndKeep('guarded');
    const anonymous = await app.client().get<{ message: string }>(proxyPath(on('/uc?id=guarded')));
    expect(anonymous.status).toBe(401);
    const { client: busy } = await app.signIn('teacher');
    const link = proxyPath(on('/uc?id=guarded'));
    for (let i = 0; i < RATE_LIMIT; i++)
      expect((await busy.get(link, { headers: { range: 'bytes=0-0' } })).status).toBe(206);
    const refused = await busy.get<{ message: string }>(link);
    expect(refused.status).toBe(429);
    expect(refused.body.message).toBe(M.rateLimited);
    expect(hostAsked('guarded')).toHaveLength(2);
  });
});
