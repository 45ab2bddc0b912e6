import http from 'node:http';
import { Headers } from '@district/contracts';
import type { UpstreamPool } from './upstream-pool';

const MAX_UPSTREAM_BODY = 2 * 1024 * 1024;

export interface UpstreamJson<T> {
  status: number;
  /** Parsed only for a 200 answer. */
  body?: T;
  /** The answer's headers (lower-case names; a repeated header's values joined with ', '). */
  headers?: Readonly<Record<string, string>>;
}

function headersOf(response: http.IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(response.headers)) {
    if (value !== undefined) out[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

/**
 * A GET the gateway makes on its own behalf (lesson preview tags, the API reference) to one live replica of a
 * service, over the pool's keep-alive agent. The path is the gateway's own; no host comes from a request.
 */
export function fetchUpstreamJson<T>(
  pool: UpstreamPool,
  path: string,
  options: {
    requestId?: string;
    timeoutMs: number;
    /** false lets the service answer from its caches; by default the gateway asks for a fresh answer. */
    fresh?: boolean;
  },
): Promise<UpstreamJson<T>> {
  const replica = pool.pick();
  if (!replica) return Promise.reject(new Error(`no ${pool.service} replica available`));
  return new Promise((resolve, reject) => {
    const request = http.get(
      new URL(path, replica.target),
      {
        agent: pool.agent,
        headers: {
          accept: 'application/json',
          ...(options.fresh === false ? {} : { 'cache-control': 'no-cache' }),
          ...(options.requestId ? { [Headers.requestId]: options.requestId } : {}),
        },
        timeout: options.timeoutMs,
      },
      (response) => {
        const chunks: Buffer[] = [];
        let size = 0;
        response.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > MAX_UPSTREAM_BODY) request.destroy(new Error('upstream answer too large'));
          else chunks.push(chunk);
        });
        response.on('end', () => {
          const status = response.statusCode ?? 0;
          if (status !== 200) return resolve({ status });
          try {
            const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as T;
            resolve({ status, body, headers: headersOf(response) });
          } catch (err) {
            reject(err as Error);
          }
        });
        response.on('error', reject);
      },
    );
    request.on('timeout', () =>
      request.destroy(new Error(`${pool.service} did not answer within ${options.timeoutMs} ms`)),
    );
    request.on('error', reject);
  });
}
