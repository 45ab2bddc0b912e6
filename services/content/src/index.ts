import multipart from '@fastify/multipart';
import { MAX_IMAGE_BYTES } from '@district/contracts';
import { serviceRoute, type ServiceDefinition } from '@district/nest-common';
import { CONTENT_SERVICE_NAME, ContentModule, type ContentModuleOptions } from './content.module';
import { createLessonPages } from './pages/lesson-pages';
import { CONTENT_PEOPLE_DATA } from './users/people-data.holder';

export { ContentModule, CONTENT_SERVICE_NAME, type ContentModuleOptions } from './content.module';
export { createLessonPages } from './pages/lesson-pages';
export { sanitizeCommentHtml, sanitizePostHtml, ALLOWED_IFRAME_HOSTS } from './html/html-sanitizer';

/** content in the launcher's target registry. Tests pass a throwaway schema. */
export function defineContentService(options: ContentModuleOptions = {}): ServiceDefinition {
  return {
    name: CONTENT_SERVICE_NAME,
    dependsOn: ['identity'],
    defaultPort: 4102,
    // Posts (and their comments), categories, comments, SEO, images, feeds.
    routes: [
      serviceRoute('/api/posts', 'tree', '/api/posts/public/my-first-lesson'),
      serviceRoute('/api/categories', 'tree', '/api/categories/9c1d'),
      serviceRoute('/api/comments', 'tree', '/api/comments/9c1d/status'),
      serviceRoute('/api/seo', 'tree', '/api/seo/sitemap/generate'),
      serviceRoute('/api/upload-image', 'exact', '/api/upload-image', 'upload'),
      serviceRoute('/sitemap.xml', 'exact', '/sitemap.xml'),
      serviceRoute('/robots.txt', 'exact', '/robots.txt'),
      serviceRoute('/rss.xml', 'exact', '/rss.xml'),
      serviceRoute('/uploads', 'tree', '/uploads/4e/4e9a0c.webp'),
    ],
    // Lesson pages' head tags (link previews), run by the gateway.
    pages: createLessonPages(),
    // It holds people's data (ADR 0036): the platform audits and answers for it, identity asks it.
    peopleData: CONTENT_PEOPLE_DATA,
    rootModule: (runtime) => ContentModule.forRoot(runtime, options),
    // Multipart parsing for POST /api/upload-image; limits are checked again per request.
    configureApp: async (app) => {
      await app.register(multipart, {
        limits: { fileSize: MAX_IMAGE_BYTES, files: 1, fields: 20, parts: 25 },
      });
    },
  };
}

export const contentService: ServiceDefinition = defineContentService();
