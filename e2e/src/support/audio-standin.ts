import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { repoRoot } from './processes';

/** The cloud host the stand-in answers for: a Dropbox download host, on the proxy's allow-list. */
export const STANDIN_HOST = 'e2e.dl.dropboxusercontent.com';

/**
 * A local HTTP server standing in for a cloud-storage host in the browser journeys: it serves the shipped demo
 * MP3s (with Range, as a CDN does) and records what it was asked. The site's processes reach it only through the
 * test preload `audio-standin-preload.cjs`, which maps STANDIN_HOST to 127.0.0.1 inside the audio proxy; the
 * production proxy refuses loopback (services/classroom's tests prove it).
 */
export interface AudioStandIn {
  port: number;
  /** A link as a teacher would paste it: the stand-in's host name, its port, a file name. */
  link(file: string): string;
  seen: Array<{ url: string; headers: IncomingHttpHeaders }>;
  /** What the site's processes need: the preload and the host map it reads. */
  preload: string;
  env: Record<string, string>;
  close(): Promise<void>;
}

const SOUNDS = path.join(repoRoot, 'web/public/sounds/quiz');

export async function startAudioStandIn(): Promise<AudioStandIn> {
  const seen: AudioStandIn['seen'] = [];
  const server: Server = createServer((req, res) => {
    seen.push({ url: req.url ?? '', headers: req.headers });
    const name = path.basename(decodeURIComponent((req.url ?? '').split('?')[0]));
    const file = path.join(SOUNDS, name);
    void stat(file).then(
      ({ size }) => {
        const range = /^bytes=(\d*)-(\d*)$/.exec(req.headers.range ?? '');
        const headers = {
          'content-type': 'audio/mpeg',
          'accept-ranges': 'bytes',
          'set-cookie': 'cdn_session=secret; Path=/',
        };
        if (range && (range[1] !== '' || range[2] !== '')) {
          const start = range[1] === '' ? Math.max(0, size - Number(range[2])) : Number(range[1]);
          const end = range[1] === '' || range[2] === '' ? size - 1 : Math.min(Number(range[2]), size - 1);
          res.writeHead(206, {
            ...headers,
            'content-length': end - start + 1,
            'content-range': `bytes ${start}-${end}/${size}`,
          });
          createReadStream(file, { start, end }).pipe(res);
        } else {
          res.writeHead(200, { ...headers, 'content-length': size });
          createReadStream(file).pipe(res);
        }
      },
      () => {
        res.writeHead(404, { 'content-type': 'text/plain' });
        res.end('not found');
      },
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    link: (file) => `http://${STANDIN_HOST}:${port}/s/e2e/${file}`,
    seen,
    preload: path.join(repoRoot, 'e2e/src/support/audio-standin-preload.cjs'),
    env: { E2E_AUDIO_STANDIN_HOSTS: JSON.stringify({ [STANDIN_HOST]: '127.0.0.1' }) },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
