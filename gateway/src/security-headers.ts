import {
  ServerResponse,
  type IncomingMessage,
  type OutgoingHttpHeader,
  type OutgoingHttpHeaders,
} from 'node:http';
import { Headers } from '@district/contracts';

/**
 * Content-Security-Policy for the React SPA. Scripts only from the site itself (Vite emits no inline
 * script); inline styles are allowed because React and the editor set `style` attributes; lessons embed
 * Google Slides and YouTube; images may come from any https host (featured images, avatars) and from
 * blobs (previews before upload); PDF libraries may start blob workers; audio is played from the site,
 * from cloud-storage links and from blobs. The SPA fetches and opens its chat WebSocket on its own origin
 * only, and CSP3 `'self'` covers ws:/wss: to that host, so an injected script cannot send data elsewhere;
 * forms may only post to the site.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob: https:",
  "media-src 'self' https: blob:",
  "font-src 'self' data:",
  "worker-src 'self' blob:",
  "connect-src 'self'",
  'frame-src https://docs.google.com https://www.youtube.com https://www.youtube-nocookie.com',
  "frame-ancestors 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
].join('; ');

/** Nothing the site uses; turning the rest off keeps an injected script from reaching them. */
export const PERMISSIONS_POLICY = 'camera=(), microphone=(), geolocation=(), payment=(), usb=()';

export const STRICT_TRANSPORT_SECURITY = 'max-age=31536000; includeSubDomains';

const BASE_HEADERS: ReadonlyArray<readonly [string, string]> = [
  ['Content-Security-Policy', CONTENT_SECURITY_POLICY],
  ['X-Content-Type-Options', 'nosniff'],
  ['Referrer-Policy', 'strict-origin-when-cross-origin'],
  ['X-Frame-Options', 'SAMEORIGIN'],
  ['Permissions-Policy', PERMISSIONS_POLICY],
  // A page of another site that opens ours gets no window handle to it, and cannot embed our responses
  // (images, JSON) as no-cors resources; the site itself loads them from its own origin.
  ['Cross-Origin-Opener-Policy', 'same-origin'],
  ['Cross-Origin-Resource-Policy', 'same-origin'],
];

/** [lower-case name, name, value] triples, so a header the answer sets itself is found by either spelling. */
type Defaults = readonly string[];
const triples = (headers: ReadonlyArray<readonly [string, string]>): Defaults =>
  headers.flatMap(([name, value]) => [name.toLowerCase(), name, value]);
const PLAIN_DEFAULTS = triples(BASE_HEADERS);
// Browsers ignore HSTS received over plain http, and sending it there would be wrong on localhost.
const TLS_DEFAULTS = triples([...BASE_HEADERS, ['Strict-Transport-Security', STRICT_TRANSPORT_SECURITY]]);
// Read once: the contracts' constants are re-exported through getters, which cost on every request.
const REQUEST_ID = Headers.requestId.toLowerCase();

type WriteHead = (
  statusCode: number,
  reason?: string,
  headers?: OutgoingHttpHeaders | OutgoingHttpHeader[],
) => ServerResponse;
const nodeWriteHead = ServerResponse.prototype.writeHead as WriteHead;

/**
 * The gateway's response object (`http.createServer({ ServerResponse: GatewayResponse })`). Every answer carries
 * the request id and the security headers, but an answer that sets one of them itself (a proxied or in-process
 * service knows its content best) keeps its own value. They are added when the head is written rather than set
 * ahead with `setHeader`: set ahead, each one is validated on its own and pushes every header the answer then
 * writes onto Node's slower merging path, which cost the gateway about 5 µs of a 120 µs request (ADR 0016).
 */
export class GatewayResponse<
  Request extends IncomingMessage = IncomingMessage,
> extends ServerResponse<Request> {
  /** The request's id, as the gateway assigned it. */
  requestId: string | undefined;
  private defaults: Defaults | undefined;

  /** Arms the default headers for this answer: the request id, and HSTS too when the client came over TLS. */
  secure(requestId: string, overTls: boolean): void {
    this.requestId = requestId;
    this.defaults = overTls ? TLS_DEFAULTS : PLAIN_DEFAULTS;
  }
}

/** Node calls writeHead for every head it writes (`res.end()` without one too, through `_implicitHeader`). */
(GatewayResponse.prototype as unknown as { writeHead: WriteHead }).writeHead = function writeHead(
  this: GatewayResponse,
  statusCode: number,
  reason?: string | OutgoingHttpHeaders | OutgoingHttpHeader[],
  headers?: OutgoingHttpHeaders | OutgoingHttpHeader[],
): ServerResponse {
  const message = typeof reason === 'string' ? reason : undefined;
  let given = typeof reason === 'string' ? headers : reason;
  const defaults = (this as unknown as { defaults: Defaults | undefined }).defaults;
  if (defaults !== undefined) {
    (this as unknown as { defaults: Defaults | undefined }).defaults = undefined;
    given = withDefaults(this, given, defaults);
  }
  return nodeWriteHead.call(this, statusCode, message, given);
};

function withDefaults(
  res: GatewayResponse,
  given: OutgoingHttpHeaders | OutgoingHttpHeader[] | undefined,
  defaults: Defaults,
): OutgoingHttpHeaders | OutgoingHttpHeader[] | undefined {
  const requestId = res.requestId;
  if (Array.isArray(given) || res.getHeaderNames().length > 0) {
    // Headers were set ahead (or come as raw pairs): Node merges them itself; add only what is missing.
    const named = Array.isArray(given) ? rawNames(given) : lowerNames(given);
    if (requestId !== undefined && !res.hasHeader(REQUEST_ID) && !named.has(REQUEST_ID))
      res.setHeader(REQUEST_ID, requestId);
    for (let i = 0; i < defaults.length; i += 3) {
      if (!res.hasHeader(defaults[i]) && !named.has(defaults[i]))
        res.setHeader(defaults[i + 1], defaults[i + 2]);
    }
    return given;
  }
  // The common case (a service's whole head in one object): one flat list, so Node validates and writes it once.
  const flat: OutgoingHttpHeader[] = [];
  let named: Set<string> | undefined;
  if (given !== undefined) {
    let mixedCase = false;
    for (const name in given) {
      const value = given[name];
      if (value === undefined) continue;
      flat.push(name, value as OutgoingHttpHeader);
      if (!mixedCase && name.toLowerCase() !== name) mixedCase = true;
    }
    // Fastify writes every name in lower case; any other spelling is looked up case-insensitively.
    if (mixedCase) named = lowerNames(given);
  }
  const sets = (lower: string) =>
    named ? named.has(lower) : given !== undefined && given[lower] !== undefined;
  if (requestId !== undefined && !sets(REQUEST_ID)) flat.push(REQUEST_ID, requestId);
  for (let i = 0; i < defaults.length; i += 3) {
    if (!sets(defaults[i])) flat.push(defaults[i + 1], defaults[i + 2]);
  }
  return flat;
}

function lowerNames(given: OutgoingHttpHeaders | undefined): Set<string> {
  return new Set(given === undefined ? [] : Object.keys(given).map((name) => name.toLowerCase()));
}

function rawNames(pairs: OutgoingHttpHeader[]): Set<string> {
  const names = new Set<string>();
  for (let i = 0; i < pairs.length; i += 2) names.add(String(pairs[i]).toLowerCase());
  return names;
}
