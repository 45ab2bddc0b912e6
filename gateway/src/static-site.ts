import { createHash } from 'node:crypto';
import { createReadStream, type Stats } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import zlib from 'node:zlib';
import type { Logger } from 'pino';
import { sendJsonError } from './json-response';
import { ROUTE_PRELOADS_FILE, RoutePreloads, injectPreloads } from './route-preloads';

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.webmanifest': 'application/manifest+json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.xml': 'application/xml; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.otf': 'font/otf',
  '.mp3': 'audio/mpeg',
  '.wav': 'audio/wav',
  '.ogg': 'audio/ogg',
  '.m4a': 'audio/mp4',
  '.mp4': 'video/mp4',
  '.webm': 'video/webm',
  '.pdf': 'application/pdf',
  '.wasm': 'application/wasm',
};

/** Vite puts content-hashed bundles under /assets/: a changed file gets a new name, so caching forever is safe. */
export const ASSETS_PREFIX = '/assets/';
export const IMMUTABLE_CACHE = 'public, max-age=31536000, immutable';
/** Unhashed files (favicon, sounds, manifest) may change with a deploy: cache briefly. */
export const SHORT_CACHE = 'public, max-age=300';
/** index.html must be revalidated every time so a deploy is picked up at once (ETag makes that cheap). */
export const NO_CACHE = 'no-cache';

const NOT_BUILT_PAGE = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Web app not built</title></head>
<body>
<h1>The web app has not been built yet</h1>
<p>The server is running and the API answers under <code>/api/</code>, but the browser app is missing.
Run <code>npm run build</code>, then reload this page.</p>
</body>
</html>
`;

interface Encoding {
  name: 'br' | 'gzip';
  suffix: string;
}
const ENCODINGS: readonly Encoding[] = [
  { name: 'br', suffix: '.br' },
  { name: 'gzip', suffix: '.gz' },
];

/** index.html alone is smaller than this: compressing it would save less than a packet. */
const COMPRESS_MIN_BYTES = 1024;
/** Pages with data differ per lesson: keep this many compressed answers (a few MB at most). */
const COMPRESSED_PAGES_KEPT = 256;

export class InvalidPathError extends Error {}

/**
 * The decoded, normalised path segments of a URL path, refusing anything that could leave the
 * served folder: `..` segments (also percent-encoded), NUL bytes and backslashes.
 */
export function safeSegments(pathname: string): string[] {
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    throw new InvalidPathError('malformed percent-encoding');
  }
  if (decoded.includes('\0') || decoded.includes('\\')) throw new InvalidPathError('forbidden character');
  const segments = decoded.split('/').filter((s) => s !== '' && s !== '.');
  if (segments.includes('..')) throw new InvalidPathError('parent segment');
  return segments;
}

function acceptsEncoding(req: IncomingMessage, name: string): boolean {
  const header = req.headers['accept-encoding'];
  if (typeof header !== 'string') return false;
  return header.split(',').some((part) => {
    const [token, ...params] = part.trim().split(';');
    if (token.trim().toLowerCase() !== name) return false;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    return q === undefined || Number(q.slice(2)) > 0;
  });
}

async function fileStat(filePath: string): Promise<Stats | undefined> {
  try {
    const stats = await stat(filePath);
    return stats.isFile() ? stats : undefined;
  } catch {
    return undefined;
  }
}

/** index.html's identity for the caches: a new build rewrites it. */
function indexKeyOf(stats: Stats): string {
  return `${stats.size}-${stats.mtimeMs}`;
}

function etagOf(stats: Stats): string {
  return `W/"${stats.size.toString(16)}-${Math.floor(stats.mtimeMs).toString(16)}"`;
}

function isFresh(req: IncomingMessage, etag: string): boolean {
  const ifNoneMatch = req.headers['if-none-match'];
  if (typeof ifNoneMatch !== 'string') return false;
  return ifNoneMatch
    .split(',')
    .map((t) => t.trim())
    .some((t) => t === '*' || t === etag || t === etag.slice(2));
}

/** A single `bytes=` range, or 'invalid' when it cannot be satisfied; multi-ranges are served whole. */
function parseRange(header: string, size: number): { start: number; end: number } | 'invalid' | undefined {
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match) return undefined;
  const [, from, to] = match;
  if (from === '' && to === '') return 'invalid';
  let start: number;
  let end: number;
  if (from === '') {
    const suffix = Number(to);
    if (suffix === 0) return 'invalid';
    start = Math.max(0, size - suffix);
    end = size - 1;
  } else {
    start = Number(from);
    end = to === '' ? size - 1 : Math.min(Number(to), size - 1);
  }
  if (start > end || start >= size) return 'invalid';
  return { start, end };
}

/** Serves the built SPA: real files, the hashed assets with a long cache, and index.html for client routes. */
export class StaticSite {
  private readonly root: string | undefined;
  /** index.html's text, kept while the file's size and mtime stay the same. */
  private indexCache?: { key: string; html: string };
  /** Compressed pages by encoding and ETag (a page's bytes change only with its data): a few, newest last. */
  private readonly compressedPages = new Map<string, Buffer>();
  /** The build's per-route preload tags (ADR 0024), read again only when index.html changes (a new build). */
  private preloads?: { key: string; table: Promise<RoutePreloads> };

  constructor(
    root: string | undefined,
    private readonly logger?: Pick<Logger, 'warn'>,
  ) {
    this.root = root === undefined ? undefined : path.resolve(root);
  }

  /** The preload table of the build whose index.html has `indexKey` (its size and mtime). */
  private routePreloads(root: string, indexKey: string): Promise<RoutePreloads> {
    if (this.preloads?.key !== indexKey) {
      const file = path.join(root, ROUTE_PRELOADS_FILE);
      const table = readFile(file, 'utf8').then(
        (text) => RoutePreloads.parse(JSON.parse(text)),
        (err: NodeJS.ErrnoException) => {
          // A build without the file (an older one, a test's folder) simply has no preloads.
          if (err.code !== 'ENOENT') throw err;
          return RoutePreloads.none;
        },
      );
      this.preloads = {
        key: indexKey,
        table: table.catch((err: unknown) => {
          // The pages still work without the tags; a broken build file must not take the site down.
          this.logger?.warn({ err, file }, 'route preloads unreadable: pages are served without them');
          return RoutePreloads.none;
        }),
      };
    }
    return this.preloads.table;
  }

  /** Answers the request; resolves with the status code sent. */
  async handle(req: IncomingMessage, res: ServerResponse, pathname: string): Promise<number> {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      sendJsonError(res, 405, 'Method not allowed', { Allow: 'GET, HEAD' });
      return 405;
    }
    let segments: string[];
    try {
      segments = safeSegments(pathname);
    } catch {
      sendJsonError(res, 400, 'Invalid path');
      return 400;
    }

    const root = this.root;
    const indexPath = root === undefined ? undefined : path.join(root, 'index.html');
    const indexStats = indexPath === undefined ? undefined : await fileStat(indexPath);
    if (root === undefined || indexPath === undefined || indexStats === undefined) {
      return this.sendNotBuilt(req, res);
    }

    // Dot-files (.env, .git) are never part of a build; treat them as absent.
    const hidden = segments.some((s) => s.startsWith('.'));
    if (segments.length > 0 && !hidden) {
      const filePath = path.join(root, ...segments);
      if (filePath.startsWith(root + path.sep)) {
        const stats = await fileStat(filePath);
        if (stats) {
          const cache = pathname.startsWith(ASSETS_PREFIX) ? IMMUTABLE_CACHE : SHORT_CACHE;
          return this.sendFile(req, res, filePath, stats, cache);
        }
      }
    }
    // A missing hashed asset is a stale page asking for an old build, and a missing file with a known
    // extension (/sounds/x.mp3) is a broken link: answering HTML would only produce a confusing error.
    const last = segments[segments.length - 1] ?? '';
    if (pathname.startsWith(ASSETS_PREFIX) || CONTENT_TYPES[path.extname(last).toLowerCase()] !== undefined) {
      sendJsonError(res, 404, 'Not found');
      return 404;
    }
    // A client route whose first screen the build described gets its preload tags (the page's own bytes).
    const preloads = await this.routePreloads(root, indexKeyOf(indexStats));
    if (preloads.tagsFor(pathname) !== undefined) return this.sendIndex(req, res, pathname, (html) => html);
    return this.sendFile(req, res, indexPath, indexStats, NO_CACHE);
  }

  /**
   * index.html with `transform` applied (a page's own head tags), for a client route the server knows more
   * about, plus the route's preload tags when it is found (200). Revalidated on every visit like index.html, with
   * an ETag of the bytes sent.
   */
  async sendIndex(
    req: IncomingMessage,
    res: ServerResponse,
    pathname: string,
    transform: (html: string) => string,
    statusCode = 200,
  ): Promise<number> {
    const root = this.root;
    const indexPath = root === undefined ? undefined : path.join(root, 'index.html');
    const stats = indexPath === undefined ? undefined : await fileStat(indexPath);
    if (root === undefined || indexPath === undefined || stats === undefined)
      return this.sendNotBuilt(req, res);
    const key = indexKeyOf(stats);
    if (this.indexCache?.key !== key) this.indexCache = { key, html: await readFile(indexPath, 'utf8') };
    const page = transform(this.indexCache.html);
    // A missing page (404) names nothing to render: no code or data is worth fetching ahead for it.
    const tags = statusCode === 200 ? (await this.routePreloads(root, key)).tagsFor(pathname) : undefined;
    const html = Buffer.from(tags === undefined ? page : injectPreloads(page, tags));
    const hash = createHash('sha256').update(html).digest('base64url').slice(0, 27);
    // A page with its first screen's data is worth compressing (issue #15); the same bytes for everyone, so cached.
    const encoding =
      html.length >= COMPRESS_MIN_BYTES ? ENCODINGS.find((e) => acceptsEncoding(req, e.name)) : undefined;
    const etag = encoding ? `W/"${hash}-${encoding.name}"` : `W/"${hash}"`;
    res.setHeader('Content-Type', CONTENT_TYPES['.html'] as string);
    res.setHeader('Cache-Control', NO_CACHE);
    res.setHeader('ETag', etag);
    res.setHeader('Vary', 'Accept-Encoding');
    if (statusCode === 200 && isFresh(req, etag)) {
      res.statusCode = 304;
      res.end();
      return 304;
    }
    const body = encoding ? this.compressedPage(html, encoding.name, etag) : html;
    if (encoding) res.setHeader('Content-Encoding', encoding.name);
    res.statusCode = statusCode;
    res.setHeader('Content-Length', body.length);
    res.end(req.method === 'HEAD' ? undefined : body);
    return statusCode;
  }

  private compressedPage(html: Buffer, encoding: Encoding['name'], etag: string): Buffer {
    const cached = this.compressedPages.get(etag);
    if (cached) return cached;
    const body =
      encoding === 'br'
        ? zlib.brotliCompressSync(html, {
            params: {
              [zlib.constants.BROTLI_PARAM_QUALITY]: 5,
              [zlib.constants.BROTLI_PARAM_SIZE_HINT]: html.length,
            },
          })
        : zlib.gzipSync(html, { level: 6 });
    this.compressedPages.set(etag, body);
    if (this.compressedPages.size > COMPRESSED_PAGES_KEPT) {
      const oldest = this.compressedPages.keys().next().value;
      if (oldest !== undefined) this.compressedPages.delete(oldest);
    }
    return body;
  }

  private sendNotBuilt(req: IncomingMessage, res: ServerResponse): number {
    res.statusCode = 503;
    res.setHeader('Content-Type', 'text/html; charset=utf-8');
    res.setHeader('Cache-Control', 'no-store');
    res.setHeader('Content-Length', Buffer.byteLength(NOT_BUILT_PAGE));
    res.end(req.method === 'HEAD' ? undefined : NOT_BUILT_PAGE);
    return 503;
  }

  private async sendFile(
    req: IncomingMessage,
    res: ServerResponse,
    filePath: string,
    stats: Stats,
    cacheControl: string,
  ): Promise<number> {
    const contentType = CONTENT_TYPES[path.extname(filePath).toLowerCase()] ?? 'application/octet-stream';
    // Precompressed siblings (index.js.br, index.js.gz) written by the build are served when accepted.
    const variants = await Promise.all(ENCODINGS.map((e) => fileStat(filePath + e.suffix)));
    const hasVariants = variants.some((v) => v !== undefined);
    let bodyPath = filePath;
    let bodyStats = stats;
    let encoding: Encoding | undefined;
    for (const [i, candidate] of ENCODINGS.entries()) {
      const variant = variants[i];
      if (variant && acceptsEncoding(req, candidate.name)) {
        bodyPath = filePath + candidate.suffix;
        bodyStats = variant;
        encoding = candidate;
        break;
      }
    }

    const etag = encoding ? `${etagOf(bodyStats).slice(0, -1)}-${encoding.name}"` : etagOf(bodyStats);
    res.setHeader('Content-Type', contentType);
    res.setHeader('Cache-Control', cacheControl);
    res.setHeader('ETag', etag);
    res.setHeader('Last-Modified', stats.mtime.toUTCString());
    if (hasVariants) res.setHeader('Vary', 'Accept-Encoding');
    if (encoding) res.setHeader('Content-Encoding', encoding.name);
    else res.setHeader('Accept-Ranges', 'bytes');

    if (isFresh(req, etag)) {
      res.statusCode = 304;
      res.end();
      return 304;
    }

    let start = 0;
    let end = bodyStats.size - 1;
    res.statusCode = 200;
    const rangeHeader = req.headers.range;
    if (!encoding && typeof rangeHeader === 'string') {
      const range = parseRange(rangeHeader, bodyStats.size);
      if (range === 'invalid') {
        res.statusCode = 416;
        res.setHeader('Content-Range', `bytes */${bodyStats.size}`);
        res.setHeader('Content-Length', 0);
        res.end();
        return 416;
      }
      if (range) {
        ({ start, end } = range);
        res.statusCode = 206;
        res.setHeader('Content-Range', `bytes ${start}-${end}/${bodyStats.size}`);
      }
    }
    res.setHeader('Content-Length', Math.max(0, end - start + 1));
    if (req.method === 'HEAD' || bodyStats.size === 0) {
      res.end();
      return res.statusCode;
    }
    try {
      await pipeline(createReadStream(bodyPath, { start, end }), res);
    } catch {
      // The client went away or the file vanished mid-deploy; the status line is already sent.
      res.destroy();
    }
    return res.statusCode;
  }
}
