import { readFileSync, readdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { REPO_ROOT } from '../lib/child-processes';

/** The cloud host the stand-in answers for: a Dropbox download host, on the audio proxy's allow-list. */
export const STANDIN_HOST = 'morning.dl.dropboxusercontent.com';

/**
 * A stand-in for a cloud-storage host on loopback, serving the shipped demo MP3s (a few KB each) from memory. The
 * site's processes reach it only through the browser journeys' test preload
 * (e2e/src/support/audio-standin-preload.cjs), which maps STANDIN_HOST to 127.0.0.1 inside the audio proxy and lets
 * loopback and plain HTTP through; without it the proxy refuses loopback as in production.
 */
export interface AudioStandIn {
  port: number;
  files: string[];
  /** A link as a teacher would paste it. */
  link(file: string): string;
  /** Requests answered. */
  served(): number;
  preload: string;
  env: Record<string, string>;
  close(): Promise<void>;
}

const SOUNDS = path.join(REPO_ROOT, 'web/public/sounds/quiz');

export async function startAudioStandIn(): Promise<AudioStandIn> {
  const files = new Map(
    readdirSync(SOUNDS)
      .filter((f) => f.endsWith('.mp3'))
      .map((f) => [f, readFileSync(path.join(SOUNDS, f))]),
  );
  let served = 0;
  const server: Server = createServer((req, res) => {
    const body = files.get(path.basename(decodeURIComponent((req.url ?? '').split('?')[0])));
    served += 1;
    if (!body) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    res.writeHead(200, {
      'content-type': 'audio/mpeg',
      'content-length': body.length,
      'accept-ranges': 'bytes',
    });
    res.end(body);
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    files: [...files.keys()].sort(),
    link: (file) => `http://${STANDIN_HOST}:${port}/s/morning/${file}`,
    served: () => served,
    preload: path.join(REPO_ROOT, 'e2e/src/support/audio-standin-preload.cjs'),
    env: { E2E_AUDIO_STANDIN_HOSTS: JSON.stringify({ [STANDIN_HOST]: '127.0.0.1' }) },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
