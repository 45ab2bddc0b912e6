/**
 * The gateway's single route table: which service answers which public path.
 * First match wins. Tests iterate over this table, so every entry carries a sample path.
 */

export const SERVICE_NAMES = ['identity', 'content', 'assessment', 'classroom', 'chat'] as const;
export type ServiceName = (typeof SERVICE_NAMES)[number];

/** `exact`: the path itself only. `tree`: the path and everything below it (`/x` and `/x/...`). */
export type RouteMatch = 'exact' | 'tree';

/** Which body-size limit applies: the default (JSON) one or the image-upload one. */
export type BodyLimitKind = 'default' | 'upload';

export interface Route {
  readonly path: string;
  readonly match: RouteMatch;
  readonly service: ServiceName;
  readonly bodyLimit: BodyLimitKind;
  /** A concrete path this entry must route, used by the tests. */
  readonly sample: string;
}

function route(
  path: string,
  match: RouteMatch,
  service: ServiceName,
  sample: string,
  bodyLimit: BodyLimitKind = 'default',
): Route {
  return { path, match, service, bodyLimit, sample };
}

export const ROUTES: readonly Route[] = [
  // identity: sign-in, sessions, users and admin user management
  route('/api/auth', 'tree', 'identity', '/api/auth/login'),
  route('/api/users', 'tree', 'identity', '/api/users/3f2a/approval'),
  route('/api/admin/users', 'tree', 'identity', '/api/admin/users/3f2a/password'),

  // content: posts (and their comments), categories, comments, SEO, images, feeds
  route('/api/posts', 'tree', 'content', '/api/posts/public/my-first-lesson'),
  route('/api/categories', 'tree', 'content', '/api/categories/9c1d'),
  route('/api/comments', 'tree', 'content', '/api/comments/9c1d/status'),
  route('/api/seo', 'tree', 'content', '/api/seo/sitemap/generate'),
  route('/api/upload-image', 'exact', 'content', '/api/upload-image', 'upload'),
  route('/sitemap.xml', 'exact', 'content', '/sitemap.xml'),
  route('/robots.txt', 'exact', 'content', '/robots.txt'),
  route('/rss.xml', 'exact', 'content', '/rss.xml'),
  route('/uploads', 'tree', 'content', '/uploads/4e/4e9a0c.webp'),

  // assessment: quizzes, attempts and grades
  route('/api/quiz-grades', 'tree', 'assessment', '/api/quiz-grades/77aa'),
  route('/api/text-quiz-grades', 'tree', 'assessment', '/api/text-quiz-grades'),
  route('/api/audio-quizzes', 'tree', 'assessment', '/api/audio-quizzes/77aa'),
  route('/api/text-quizzes', 'tree', 'assessment', '/api/text-quizzes'),

  // classroom: audio lists and the audio proxy, lesson plans, Google Slides library
  route('/api/audio-lists', 'tree', 'classroom', '/api/audio-lists/12ab'),
  route('/api/audio-proxy', 'exact', 'classroom', '/api/audio-proxy'),
  route('/api/lesson-plans', 'tree', 'classroom', '/api/lesson-plans/12ab'),
  route('/api/google-slides', 'tree', 'classroom', '/api/google-slides'),

  // chat: chatrooms, their administration, and the WebSocket (upgrades are handled apart)
  route('/api/chatrooms', 'tree', 'chat', '/api/chatrooms'),
  route('/api/admin/chatrooms', 'tree', 'chat', '/api/admin/chatrooms/5b5b'),
  route('/ws', 'exact', 'chat', '/ws'),
];

/** The path of the WebSocket endpoint; upgrades to any other path are refused. */
export const WEBSOCKET_PATH = '/ws';

function matches(entry: Route, pathname: string): boolean {
  if (pathname === entry.path) return true;
  return (
    entry.match === 'tree' &&
    pathname.length > entry.path.length &&
    pathname.startsWith(entry.path) &&
    pathname.charCodeAt(entry.path.length) === 47 /* '/' */
  );
}

/** The route for a path (without query string), or undefined. First match wins. */
export function matchRoute(pathname: string, routes: readonly Route[] = ROUTES): Route | undefined {
  for (const entry of routes) {
    if (matches(entry, pathname)) return entry;
  }
  return undefined;
}

/** `/api` and everything below it is the API namespace: unmatched paths there are JSON 404s, never the SPA. */
export function isApiPath(pathname: string): boolean {
  return pathname === '/api' || pathname.startsWith('/api/');
}
