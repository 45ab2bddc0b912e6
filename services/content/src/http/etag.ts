import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';

/** True when the request's If-None-Match names `etag` (or `*`). */
export function matchesEtag(request: FastifyRequest, etag: string): boolean {
  const header = request.headers['if-none-match'];
  if (!header) return false;
  const weak = (tag: string) => tag.trim().replace(/^W\//, '');
  return String(header)
    .split(',')
    .some((tag) => tag.trim() === '*' || weak(tag) === weak(etag));
}

export interface CachedSendOptions {
  contentType: string;
  cacheControl: string;
  headers?: Record<string, string>;
}

/**
 * Sends `payload` with a strong ETag of its bytes and answers 304 to a matching revalidation. The payload is
 * always built from the database, never from a server-side cache, so a client bypassing caches (fetch
 * `cache: 'no-store'`/`'no-cache'`, which sends `Cache-Control: no-cache`) always gets the current post: at
 * worst a 304 confirming its copy is current (RFC 9111 §5.2.1.4 lets the origin validate).
 */
export function sendCached(
  request: FastifyRequest,
  reply: FastifyReply,
  payload: string | Buffer,
  options: CachedSendOptions,
): FastifyReply {
  const etag = `"${createHash('sha256').update(payload).digest('base64url').slice(0, 32)}"`;
  reply.header('etag', etag).header('cache-control', options.cacheControl).header('vary', 'accept-encoding');
  for (const [name, value] of Object.entries(options.headers ?? {})) reply.header(name, value);
  if (matchesEtag(request, etag)) return reply.status(304).send();
  return reply.status(200).type(options.contentType).send(payload);
}

export const JSON_TYPE = 'application/json; charset=utf-8';
/** Public reads: any cache may keep them but must revalidate (cheap with the ETag) before reuse. */
export const REVALIDATE = 'public, no-cache';
