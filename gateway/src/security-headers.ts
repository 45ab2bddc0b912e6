import type { ServerResponse } from 'node:http';

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

/**
 * Sets the security headers on a response. A proxied service may still send its own value for any of
 * them; the service knows its content best, so its value replaces the default.
 */
export function applySecurityHeaders(res: ServerResponse, overTls: boolean): void {
  for (const [name, value] of BASE_HEADERS) res.setHeader(name, value);
  // Browsers ignore HSTS received over plain http, and sending it there would be wrong on localhost.
  if (overTls) res.setHeader('Strict-Transport-Security', STRICT_TRANSPORT_SECURITY);
}
