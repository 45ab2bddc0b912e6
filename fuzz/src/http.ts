import { Pool } from 'undici';
import type { Answer } from './checks';
import type { FuzzRequest } from './request-arbitrary';

/**
 * Sends requests exactly as generated: undici puts the path on the request line as given (no normalisation of
 * `..` or percent escapes, unlike fetch), with the persona's session cookie.
 */
export class SiteClient {
  private readonly pool: Pool;

  constructor(
    readonly origin: string,
    connections: number,
  ) {
    this.pool = new Pool(origin, { connections, pipelining: 1, headersTimeout: 30_000, bodyTimeout: 30_000 });
  }

  async send(request: FuzzRequest, cookie: string | undefined): Promise<Answer> {
    const headers: Record<string, string> = { ...request.headers };
    if (cookie) headers.cookie = cookie;
    const res = await this.pool.request({
      method: request.method as 'GET',
      path: request.path,
      headers,
      body: request.body,
    });
    const text = await res.body.text();
    const type = res.headers['content-type'];
    return {
      status: res.statusCode,
      contentType: Array.isArray(type) ? type.join(', ') : (type ?? ''),
      text,
    };
  }

  /** A JSON call with the site origin, for setting up. */
  async json<T>(
    method: string,
    path: string,
    cookie: string | undefined,
    body?: unknown,
  ): Promise<{ status: number; body: T; cookie?: string }> {
    const headers: Record<string, string> = { origin: this.origin };
    if (cookie) headers.cookie = cookie;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const res = await this.pool.request({
      method: method as 'GET',
      path,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.body.text();
    const setCookie = res.headers['set-cookie'];
    const session = (Array.isArray(setCookie) ? setCookie : setCookie ? [setCookie] : []).find((c) =>
      c.startsWith('district_session='),
    );
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // not JSON
    }
    return { status: res.statusCode, body: parsed as T, cookie: session?.split(';')[0] };
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}

/** Runs `work` over `items` with at most `limit` at a time, in order of start. */
export async function inParallel<T>(
  items: readonly T[],
  limit: number,
  work: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const item = items[next++];
      await work(item);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}
