import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { TOTAL_COUNT_HEADER, type Post } from '@district/contracts';
import { JSON_TYPE, REVALIDATE, matchesEtag } from '../http/etag';
import type { RenderedPage } from './public-list-cache';

// Read once: the contracts' constants are re-exported through getters, which cost on every request.
const TOTAL_COUNT = TOTAL_COUNT_HEADER;

/** The bytes, ETag (as http/etag.ts makes them: SHA-256 of the bytes) and total of one page of the list. */
export function renderPage(posts: readonly Post[], total: number): RenderedPage {
  const body = Buffer.from(JSON.stringify(posts), 'utf8');
  return { body, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 32)}"`, total };
}

/**
 * Whether the client asked to bypass caches: fetch's `cache: 'no-cache'`/`'no-store'` and a browser's reload
 * send `Cache-Control: no-cache` (or `max-age=0`), older clients `Pragma: no-cache`. Such a request gets a page
 * built from the database after it arrived, never one kept in memory.
 */
export function bypassesCaches(request: FastifyRequest): boolean {
  const cacheControl = String(request.headers['cache-control'] ?? '').toLowerCase();
  if (/(^|[\s,])(no-cache|no-store|max-age\s*=\s*0)([\s,]|$)/.test(cacheControl)) return true;
  return /(^|[\s,])no-cache([\s,]|$)/.test(String(request.headers.pragma ?? '').toLowerCase());
}

/** Sends a page with the same headers as every public read (http/etag.ts), or 304 to a matching revalidation. */
export function sendPage(request: FastifyRequest, reply: FastifyReply, page: RenderedPage): FastifyReply {
  reply
    .header('etag', page.etag)
    .header('cache-control', REVALIDATE)
    .header('vary', 'accept-encoding')
    .header(TOTAL_COUNT, String(page.total))
    .header('access-control-expose-headers', TOTAL_COUNT);
  if (matchesEtag(request, page.etag)) return reply.status(304).send();
  return reply.status(200).type(JSON_TYPE).send(page.body);
}
