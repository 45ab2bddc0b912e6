import http, { type IncomingHttpHeaders, type OutgoingHttpHeaders } from 'node:http';

/** An answer read whole, with the raw status and headers (no fetch normalisation). */
export interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
  text: string;
  json<T = Record<string, unknown>>(): T;
}

export interface RawRequestOptions {
  method?: string;
  headers?: OutgoingHttpHeaders;
  /** Sent with a Content-Length. */
  body?: string | Buffer;
  /** Sent as chunks with Transfer-Encoding: chunked, without waiting for the answer in between. */
  chunks?: Buffer[];
  agent?: http.Agent | false;
  /** The connection comes from this local address (another loopback address stands for an ingress). */
  localAddress?: string;
}

/**
 * One HTTP request with the raw path given (no URL normalisation, so traversal attempts reach the server
 * as written). Write errors after the server has answered (it may close early on a 413) are ignored.
 */
export function rawRequest(
  base: string,
  path: string,
  options: RawRequestOptions = {},
): Promise<RawResponse> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: url.hostname,
        port: url.port,
        path,
        method: options.method ?? 'GET',
        headers: {
          ...(options.body !== undefined ? { 'Content-Length': Buffer.byteLength(options.body) } : {}),
          ...options.headers,
        },
        agent: options.agent ?? false,
        localAddress: options.localAddress,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const body = Buffer.concat(chunks);
          const text = body.toString('utf8');
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body,
            text,
            json: <T>() => JSON.parse(text) as T,
          });
        });
        res.on('error', reject);
      },
    );
    let answered = false;
    req.on('response', () => {
      answered = true;
    });
    req.on('error', (err) => {
      if (!answered) reject(err);
    });
    if (options.chunks) {
      for (const chunk of options.chunks) req.write(chunk);
      req.end();
    } else {
      req.end(options.body);
    }
  });
}
