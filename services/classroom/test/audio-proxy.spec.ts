import type { IncomingMessage, ServerResponse } from 'node:http';
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
 * The audio proxy against a local HTTP server standing in for the cloud hosts: the test app's resolver maps the
 * allow-listed names to 127.0.0.1 and lets loopback through (this app only), plain HTTP on the stand-in's port.
 * These cases are about relaying each answer from the host — the path of every file not kept in memory — so this
 * app keeps none (CLASSROOM_AUDIO_PROXY_CACHE_BYTES=0); keeping files is audio-proxy-cache.spec.ts's.
 */
const MAX_BYTES = 256 * 1024;
const RATE_LIMIT = 40;
const HOSTS = [
  'drive.google.com',
  'docs.google.com',
  'www.dropbox.com',
  'dl.dropboxusercontent.com',
  'onedrive.live.com',
  'api.onedrive.com',
  'district.sharepoint.com',
];

let standIn: StandIn;
let app: TokenServiceTestApp;
let listener: HttpClient;
/** Paths whose upstream response the proxy closed. */
const upstreamClosed: string[] = [];
const on = (host: string, path: string) => `http://${host}:${standIn.port}${path}`;

/** `/hop/{n}/{total}`: a redirect to hop n+1 on the next allow-listed name, the audio at hop `total`. */
function hop(req: IncomingMessage, res: ServerResponse, s: StandIn): void {
  const [n, total] = (req.url ?? '').split('/').slice(2).map(Number) as [number, number];
  if (n >= total) return serveAudio(s.audio, req, res);
  res.writeHead(302, { location: on(HOSTS[(n + 1) % HOSTS.length]!, `/hop/${n + 1}/${total}`) }).end();
}

beforeAll(async () => {
  standIn = await startStandIn({
    '/hop/*': hop,
    '/page': (_req, res) =>
      void res.writeHead(200, { 'content-type': 'text/html' }).end('<html>Sign in</html>'),
    '/missing': (_req, res) => void res.writeHead(404, { 'content-type': 'audio/mpeg' }).end(),
    '/octet': (req, res, s) => serveAudio(s.audio, req, res, 'application/octet-stream'),
    '/announced-huge': (_req, res) => {
      res.writeHead(200, { 'content-type': 'audio/mpeg', 'content-length': 10 * 1024 * 1024 });
      res.write(Buffer.alloc(1024));
    },
    '/endless': (_req, res) => {
      // No length announced: the proxy has to count and cut off.
      res.writeHead(200, { 'content-type': 'audio/mpeg' });
      const chunk = Buffer.alloc(16 * 1024, 0x42);
      let sent = 0;
      const pump = () => {
        while (sent < 2 * MAX_BYTES && res.write(chunk)) sent += chunk.length;
        if (sent < 2 * MAX_BYTES) res.once('drain', pump);
        else res.end();
      };
      res.on('error', () => undefined);
      pump();
    },
    '/stall': () => undefined,
    '/trickle': (_req, res) => {
      // A chunk every 100 ms, for ever: only the streaming time cap ends it.
      res.writeHead(200, { 'content-type': 'audio/ogg' });
      const timer = setInterval(() => res.write(Buffer.alloc(1024, 0x43)), 100);
      res.on('close', () => {
        clearInterval(timer);
        upstreamClosed.push('/trickle');
      });
    },
  });
  app = await startClassroomForProxy(
    standInNetwork(Object.fromEntries(HOSTS.map((h) => [h, ['127.0.0.1']]))),
    {
      env: {
        CLASSROOM_AUDIO_PROXY_MAX_BYTES: String(MAX_BYTES),
        CLASSROOM_AUDIO_PROXY_TIMEOUT_MS: '800',
        CLASSROOM_AUDIO_PROXY_STREAM_MS: '1500',
        CLASSROOM_AUDIO_PROXY_RATE_LIMIT: String(RATE_LIMIT),
        CLASSROOM_AUDIO_PROXY_CACHE_BYTES: '0',
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

describe('the audio proxy streams audio from the allow-listed hosts', () => {
  it('answers the whole file with the playback headers, from a Drive share link rewritten to its download form', async () => {
    const res = await rawProxyGet(app, listener, on('drive.google.com', '/file/d/1AbC-d_9/view?usp=sharing'));
    expect(res.status).toBe(200);
    expect(res.body?.equals(standIn.audio)).toBe(true);
    expect(res.headers.get('content-type')).toBe('audio/mpeg');
    expect(res.headers.get('content-length')).toBe(String(standIn.audio.length));
    expect(res.headers.get('accept-ranges')).toBe('bytes');
    expect(res.headers.get('etag')).toBe('"v1"');
    expect(standIn.seen.map((r) => r.url)).toEqual(['/uc?export=download&id=1AbC-d_9']);
    expect(standIn.seen[0]!.headers.host).toBe(`drive.google.com:${standIn.port}`);
  });

  it("streams straight into the response and still sends the platform's headers (the request id)", async () => {
    const first = await rawProxyGet(app, listener, on('drive.google.com', '/uc?export=download&id=again'), {
      'x-request-id': 'audio-proxy-spec-1',
    });
    expect(first.status).toBe(200);
    expect(first.headers.get('x-request-id')).toBe('audio-proxy-spec-1');
    // The same link again (its checked first hop is remembered): fetched again, nothing of the answer kept.
    const again = await rawProxyGet(app, listener, on('drive.google.com', '/uc?export=download&id=again'), {
      range: 'bytes=0-9',
    });
    expect(again.status).toBe(206);
    expect(again.body?.equals(standIn.audio.subarray(0, 10))).toBe(true);
    expect(standIn.seen.map((r) => r.headers.range)).toEqual([undefined, 'bytes=0-9']);
  });

  it('passes Range through and streams the 206 with its Content-Range', async () => {
    const res = await rawProxyGet(app, listener, on('www.dropbox.com', '/s/abc/song.mp3?dl=0'), {
      range: 'bytes=100-199',
    });
    expect(res.status).toBe(206);
    expect(res.headers.get('content-range')).toBe(`bytes 100-199/${standIn.audio.length}`);
    expect(res.headers.get('content-length')).toBe('100');
    expect(res.body?.equals(standIn.audio.subarray(100, 200))).toBe(true);
    expect(standIn.seen[0]!.headers.range).toBe('bytes=100-199');
    expect(standIn.seen[0]!.url).toBe('/s/abc/song.mp3?dl=1');
  });

  it('drops a malformed Range instead of passing it on', async () => {
    const res = await rawProxyGet(app, listener, on('drive.google.com', '/uc?id=x1'), {
      range: 'bytes=1-2,5-9',
    });
    expect(res.status).toBe(200);
    expect(standIn.seen.at(-1)!.headers.range).toBeUndefined();
  });

  it('answers octet-stream downloads (what Drive and Dropbox often send)', async () => {
    const res = await rawProxyGet(app, listener, on('dl.dropboxusercontent.com', '/octet'));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/octet-stream');
  });

  it('follows a chain of 5 redirects within the list, each hop on its own host', async () => {
    const res = await rawProxyGet(app, listener, on('drive.google.com', '/hop/0/5'));
    expect(res.status).toBe(200);
    expect(res.body?.equals(standIn.audio)).toBe(true);
    expect(standIn.seen.map((r) => r.url)).toEqual([
      '/hop/0/5',
      '/hop/1/5',
      '/hop/2/5',
      '/hop/3/5',
      '/hop/4/5',
      '/hop/5/5',
    ]);
    expect(standIn.seen.map((r) => r.headers.host!.split(':')[0])).toEqual(HOSTS.slice(0, 6));
  });

  it('refuses a sixth redirect', async () => {
    const res = await listener.get<{ message: string }>(proxyPath(on('drive.google.com', '/hop/0/6')));
    expect(res.status).toBe(502);
    expect(res.body.message).toBe(M.tooManyRedirects);
    expect(standIn.seen).toHaveLength(6);
  });

  it('sends no cookies or credentials up, and passes no cookies or other headers of the host down', async () => {
    const res = await rawProxyGet(app, listener, on('drive.google.com', '/uc?export=download&id=abc'), {
      authorization: 'Bearer browser-secret',
      'x-forwarded-for': '10.1.2.3',
    });
    expect(res.status).toBe(200);
    const up = standIn.seen[0]!.headers;
    expect(up.cookie).toBeUndefined();
    expect(up.authorization).toBeUndefined();
    expect(up['x-forwarded-for']).toBeUndefined();
    expect(Object.keys(up).sort()).toEqual(['accept', 'accept-encoding', 'connection', 'host', 'user-agent']);
    expect(res.headers.get('set-cookie')).toBeNull();
    expect(res.headers.get('x-upstream-secret')).toBeNull();
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('refuses an answer that is not audio', async () => {
    const res = await listener.get<{ message: string }>(proxyPath(on('docs.google.com', '/page')));
    expect(res.status).toBe(502);
    expect(res.body.message).toBe(M.notAudio);
  });

  it('answers 502 when the host answers an error', async () => {
    const res = await listener.get<{ message: string }>(proxyPath(on('docs.google.com', '/missing')));
    expect(res.status).toBe(502);
    expect(res.body.message).toBe(M.upstreamStatus(404));
  });

  it('refuses a file announced larger than the cap', async () => {
    const res = await listener.get<{ message: string }>(proxyPath(on('drive.google.com', '/announced-huge')));
    expect(res.status).toBe(502);
    expect(res.body.message).toBe(M.tooLarge(MAX_BYTES));
  });

  it('cuts off a body that runs past the cap', async () => {
    const res = await rawProxyGet(app, listener, on('drive.google.com', '/endless'));
    expect(res.status).toBe(200);
    // The stream is cut: the body either fails to complete or stops at the cap, never the whole 2 × cap.
    if (res.body) expect(res.body.length).toBeLessThanOrEqual(MAX_BYTES);
    else expect(res.error).toBeTruthy();
  });

  it('cuts off an answer that streams past the time cap, and closes the upstream', async () => {
    upstreamClosed.length = 0;
    const started = Date.now();
    const res = await rawProxyGet(app, listener, on('drive.google.com', '/trickle'));
    expect(res.status).toBe(200);
    // The 1.5 s streaming cap ends it, not the 0.8 s headers timeout (a long file streams past that).
    expect(Date.now() - started).toBeGreaterThanOrEqual(1400);
    expect(Date.now() - started).toBeLessThan(5000);
    if (res.body) expect(res.body.length).toBeLessThan(30 * 1024);
    else expect(res.error).toBeTruthy();
    await waitFor(() => upstreamClosed.includes('/trickle'), 'the upstream answer closed');
  });

  it('closes the upstream when the listener goes away', async () => {
    upstreamClosed.length = 0;
    const path = proxyPath(on('drive.google.com', '/trickle'));
    const cookie = listener.jar.header(new URL(path, app.runtime.publicUrl)) ?? '';
    const abort = new AbortController();
    const response = await fetch(`${app.url}${path}`, { headers: { cookie }, signal: abort.signal });
    expect(response.status).toBe(200);
    const reader = response.body!.getReader();
    await reader.read();
    abort.abort();
    const closedWithin = Date.now();
    await waitFor(() => upstreamClosed.includes('/trickle'), 'the upstream answer closed');
    // Well before the 1.5 s time cap would have closed it.
    expect(Date.now() - closedWithin).toBeLessThan(1000);
  });

  it('answers HEAD with the headers only, and releases the upstream', async () => {
    upstreamClosed.length = 0;
    const path = proxyPath(on('drive.google.com', '/trickle'));
    const cookie = listener.jar.header(new URL(path, app.runtime.publicUrl)) ?? '';
    const started = Date.now();
    const response = await fetch(`${app.url}${path}`, { method: 'HEAD', headers: { cookie } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('audio/ogg');
    expect(await response.text()).toBe('');
    await waitFor(() => upstreamClosed.includes('/trickle'), 'the upstream answer closed');
    expect(Date.now() - started).toBeLessThan(1400);
  });

  it('answers 504 when the host does not answer in time', async () => {
    const res = await listener.get<{ message: string }>(proxyPath(on('drive.google.com', '/stall')));
    expect(res.status).toBe(504);
    expect(res.body.message).toBe(M.timeout);
  });

  it('limits each user in the shared store: 429 with Retry-After past the limit, other users unaffected', async () => {
    const { client: busy } = await app.signIn('teacher');
    const link = proxyPath(on('drive.google.com', '/uc?id=rate'));
    for (let i = 0; i < RATE_LIMIT; i++) expect((await busy.get(link)).status).toBe(200);
    const refused = await busy.get<{ message: string }>(link);
    expect(refused.status).toBe(429);
    expect(refused.body.message).toBe(M.rateLimited);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await listener.get(link)).status).toBe(200);
  });

  it('answers 401 to anonymous callers without fetching anything', async () => {
    const res = await app.client().get<{ message: string }>(proxyPath(on('drive.google.com', '/uc?id=anon')));
    expect(res.status).toBe(401);
    expect(typeof res.body.message).toBe('string');
    expect(standIn.seen).toHaveLength(0);
  });

  it('answers 400 with a message when the url parameter is missing', async () => {
    const res = await listener.get<{ message: string }>('/api/audio-proxy');
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(M.invalidUrl);
  });
});
