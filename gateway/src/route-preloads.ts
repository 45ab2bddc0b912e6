import { escapeHtml } from './page-meta';

/**
 * Per-route preload tags for the SPA's first HTML (issue #15, ADR 0024). The web build writes, beside index.html,
 * `.vite/route-preloads.json` (web/src/app/route-preloads.ts → web/vite.config.ts): for each of a few routes the
 * chunks its first screen needs beyond the entry and the same-site GETs it makes at once. The gateway knows no
 * route itself; it matches the request's path against that file's patterns and writes the tags, so the browser
 * fetches the page's code (and first answers) in parallel with the entry instead of after the entry has run.
 */

/** Where the build writes the file, relative to the built SPA's folder (a dot folder: never served). */
export const ROUTE_PRELOADS_FILE = '.vite/route-preloads.json';

/** A built chunk: Vite's hashed names under /assets/. */
const MODULE_URL = /^\/assets\/[A-Za-z0-9._-]+\.js$/;
/** A same-site API path (with an optional query): the first requests of a screen. */
const FETCH_URL = /^\/api\/[A-Za-z0-9._~\-/]*(\?[A-Za-z0-9._~\-=&%]*)?$/;
/** One literal path segment, or `:name` for any one segment (React Router's syntax). */
const SEGMENT = /^(:[A-Za-z][A-Za-z0-9_]*|[A-Za-z0-9._~-]+)$/;

export class RoutePreloadsError extends Error {}

interface CompiledRoute {
  /** `null` where the pattern has a `:param`. */
  readonly segments: ReadonlyArray<string | null>;
  readonly tags: string;
}

function segmentsOf(pathname: string): string[] {
  return pathname.split('/').filter((s) => s !== '');
}

function stringList(value: unknown, what: string, pattern: RegExp): string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) throw new RoutePreloadsError(`${what} must be a list`);
  return value.map((item) => {
    if (typeof item !== 'string' || !pattern.test(item))
      throw new RoutePreloadsError(`${what}: ${JSON.stringify(item)} is not allowed`);
    return item;
  });
}

/** The tags for one route: the module chunks, then the requests (each URL once). */
export function renderPreloadTags(modules: readonly string[], fetches: readonly string[]): string {
  const e = escapeHtml;
  return [
    ...[...new Set(modules)].map((href) => `<link rel="modulepreload" crossorigin href="${e(href)}" />`),
    // As the app's API client asks: CORS mode with credentials, so the browser hands the answer to its fetch.
    ...[...new Set(fetches)].map(
      (href) => `<link rel="preload" href="${e(href)}" as="fetch" crossorigin="use-credentials" />`,
    ),
  ].join('\n    ');
}

/**
 * Fetch preloads a page plug-in asked for (a lesson's comments): same-site `/api/` paths only; anything else is
 * left out, never written.
 */
export function fetchPreloadTags(paths: readonly string[] | undefined): string | undefined {
  const safe = (paths ?? []).filter((p) => typeof p === 'string' && FETCH_URL.test(p));
  return safe.length ? renderPreloadTags([], safe) : undefined;
}

/** The route table of one build, compiled once; `tagsFor` is a few segment comparisons per request. */
export class RoutePreloads {
  static readonly none = new RoutePreloads([]);

  private constructor(private readonly routes: readonly CompiledRoute[]) {}

  /** Checks the build's file strictly: a malformed entry is an error, never a half-read table. */
  static parse(value: unknown): RoutePreloads {
    const routes = (value as { routes?: unknown } | null)?.routes;
    if (!Array.isArray(routes)) throw new RoutePreloadsError('expected { routes: [...] }');
    const compiled = routes.map((route: unknown, i): CompiledRoute | undefined => {
      const { path, modules, fetch } = (route ?? {}) as Record<string, unknown>;
      if (typeof path !== 'string' || !path.startsWith('/'))
        throw new RoutePreloadsError(`routes[${i}].path must be a path`);
      const segments = segmentsOf(path);
      if (!segments.every((s) => SEGMENT.test(s)))
        throw new RoutePreloadsError(`routes[${i}].path ${JSON.stringify(path)} is not a route pattern`);
      const tags = renderPreloadTags(
        stringList(modules, `routes[${i}].modules`, MODULE_URL),
        stringList(fetch, `routes[${i}].fetch`, FETCH_URL),
      );
      return tags === ''
        ? undefined
        : { segments: segments.map((s) => (s.startsWith(':') ? null : s)), tags };
    });
    return new RoutePreloads(compiled.filter((r): r is CompiledRoute => r !== undefined));
  }

  /** The tags for the first route matching `pathname` (the request's path, as sent), or undefined. */
  tagsFor(pathname: string): string | undefined {
    if (this.routes.length === 0) return undefined;
    const parts = segmentsOf(pathname);
    for (const route of this.routes) {
      if (route.segments.length !== parts.length) continue;
      if (route.segments.every((s, i) => s === null || s === parts[i])) return route.tags;
    }
    return undefined;
  }
}

/** index.html with the tags at the end of <head> (the preload scanner finds them before the body). */
export function injectPreloads(indexHtml: string, tags: string): string {
  const at = indexHtml.search(/<\/head>/i);
  if (at === -1) return indexHtml;
  return `${indexHtml.slice(0, at)}  ${tags}\n  ${indexHtml.slice(at)}`;
}
