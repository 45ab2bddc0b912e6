/**
 * What the first screen of a page opened directly needs besides the entry (issue #15, ADR 0024). The build
 * (`routePreloads` in vite.config.ts) turns each module into its output chunks — the module's chunk and that
 * chunk's static imports, minus what index.html already loads — and writes `dist/.vite/route-preloads.json`. The
 * gateway reads that file once per build and puts `<link rel="modulepreload">` (and, for `fetch`,
 * `<link rel="preload" as="fetch">`) tags into the page it serves for a matching path, so the browser fetches them
 * in parallel with the entry instead of one round trip after it has run.
 *
 * - `path`: a route of `appRoutes` (app/router.tsx), React Router syntax (`:param` is one segment).
 * - `modules`: source files, relative to `web/`: the route's lazy page module, and the contract module its API
 *   module imports dynamically when the first screen validates an answer with the contract's zod schemas
 *   (answers checked by a zod-free guard need none).
 * - `fetch`: same-site GETs the first screen makes whatever the page's state, requested exactly as the app's API
 *   client does (credentials included), so the browser reuses the preloaded answer.
 *
 * Plain data only: vite.config.ts imports this file.
 */
export interface RoutePreload {
  readonly path: string;
  readonly modules: readonly string[];
  readonly fetch?: readonly string[];
}

export const ROUTE_PRELOADS: readonly RoutePreload[] = [
  {
    path: '/blog',
    modules: ['src/features/blog/components/blog-list-page.tsx'],
    // The category filter, checked without zod (the lessons themselves are in the first HTML).
    fetch: ['/api/categories'],
  },
  // The lesson is in the first HTML; its comments (checked without zod) are preloaded by content's page plug-in,
  // which knows the lesson's id.
  { path: '/blog/:slug', modules: ['src/features/blog/components/post-page.tsx'] },
  { path: '/educational-tools', modules: ['src/features/tools/hub/tools-hub-page.tsx'] },
  // The quiz list, checked without zod.
  {
    path: '/text-quizzes',
    modules: ['src/features/quizzes/components/quizzes-page.tsx'],
    fetch: ['/api/text-quizzes'],
  },
];
