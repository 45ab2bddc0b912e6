import type { BodyLimitKind } from '@district/nest-common';
import { buildRouteTable, type GatewayService, type Route, type RouteMatch } from '../../src/routes';

/**
 * A test registry: the gateway knows no service by name, so its tests hand it this one, as the launcher
 * hands it the real registry. identity and content carry their real routes (services/<name>/src/index.ts);
 * assessment, classroom and chat are the planned services with the paths the spec gives them, chat owning
 * the WebSocket. The launcher's own tests check the real registry's table.
 */
const route = (path: string, match: RouteMatch, sample: string, bodyLimit: BodyLimitKind = 'default') => ({
  path,
  match,
  sample,
  bodyLimit,
});

export const TEST_SERVICES: readonly GatewayService[] = [
  {
    name: 'identity',
    routes: [
      route('/api/auth', 'tree', '/api/auth/login'),
      route('/api/users', 'tree', '/api/users/3f2a/approval'),
      route('/api/admin/users', 'tree', '/api/admin/users/3f2a/password'),
      route('/api/admin/roster/imports', 'exact', '/api/admin/roster/imports', 'roster'),
      route('/api/classes', 'tree', '/api/classes/3f2a/members'),
    ],
  },
  {
    name: 'content',
    routes: [
      route('/api/posts', 'tree', '/api/posts/public/my-first-lesson'),
      route('/api/categories', 'tree', '/api/categories/9c1d'),
      route('/api/comments', 'tree', '/api/comments/9c1d/status'),
      route('/api/seo', 'tree', '/api/seo/sitemap/generate'),
      route('/api/upload-image', 'exact', '/api/upload-image', 'upload'),
      route('/sitemap.xml', 'exact', '/sitemap.xml'),
      route('/robots.txt', 'exact', '/robots.txt'),
      route('/rss.xml', 'exact', '/rss.xml'),
      route('/uploads', 'tree', '/uploads/4e/4e9a0c.webp'),
    ],
  },
  {
    name: 'assessment',
    routes: [
      route('/api/quiz-grades', 'tree', '/api/quiz-grades/77aa'),
      route('/api/text-quiz-grades', 'tree', '/api/text-quiz-grades'),
      route('/api/audio-quizzes', 'tree', '/api/audio-quizzes/77aa'),
      route('/api/text-quizzes', 'tree', '/api/text-quizzes'),
      // Carved out of identity's /api/classes tree (a pattern route is tried before every other entry).
      route('/api/classes/*/results.zip', 'pattern', '/api/classes/3f2a/results.zip'),
    ],
  },
  {
    name: 'classroom',
    routes: [
      route('/api/audio-lists', 'tree', '/api/audio-lists/12ab'),
      route('/api/audio-proxy', 'exact', '/api/audio-proxy'),
      route('/api/lesson-plans', 'tree', '/api/lesson-plans/12ab'),
      route('/api/google-slides', 'tree', '/api/google-slides'),
    ],
  },
  {
    name: 'chat',
    routes: [
      route('/api/chatrooms', 'tree', '/api/chatrooms'),
      route('/api/admin/chatrooms', 'tree', '/api/admin/chatrooms/5b5b'),
      route('/ws', 'exact', '/ws'),
    ],
  },
];

export const TEST_SERVICE_NAMES = TEST_SERVICES.map((s) => s.name);

/** The table the gateway builds from TEST_SERVICES. */
export const TEST_ROUTES: readonly Route[] = buildRouteTable(TEST_SERVICES);

/** A registry of identity and content alone (before chat, assessment and classroom): nothing declares /ws. */
export const WITHOUT_CHAT_AND_PLANNED: readonly GatewayService[] = TEST_SERVICES.filter(
  (s) => s.name === 'identity' || s.name === 'content',
);
