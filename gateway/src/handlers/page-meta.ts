import type { Logger } from 'pino';
import type { PageFetch, PageLookup, PagePlugin } from '@district/nest-common';
import { NOINDEX_TAG, injectHead, injectInitialData, renderHeadTags } from '../page-meta';
import { fetchPreloadTags, injectPreloads } from '../route-preloads';
import type { StaticSite } from '../static-site';
import type { GatewayHandler, RequestContext } from './handler';

export interface PageMetaHandlerOptions {
  plugins: readonly PagePlugin[];
  staticSite: StaticSite;
  /** A plug-in's GET for one request (its request id travels along). */
  fetchFor(requestId: string): PageFetch;
  publicOrigin: string;
  logger: Logger;
}

/**
 * The SPA's index.html with a page's own head tags and first-screen data, for the pages a plug-in describes
 * (content's home, lesson list and lessons). A
 * page that names nothing public is a 404 with noindex; when its owner cannot say, the plain app is served
 * (the next step) and loads the page itself.
 */
export class PageMetaHandler implements GatewayHandler {
  readonly name = 'page-meta';

  constructor(private readonly options: PageMetaHandlerOptions) {}

  handle(ctx: RequestContext): boolean | Promise<boolean> {
    if (this.options.plugins.length === 0) return false;
    if (ctx.req.method !== 'GET' && ctx.req.method !== 'HEAD') return false;
    for (const plugin of this.options.plugins) {
      const key = plugin.match(ctx.pathname);
      if (key !== undefined) return this.serve(ctx, plugin, key);
    }
    return false;
  }

  private async serve(ctx: RequestContext, plugin: PagePlugin, key: string): Promise<boolean> {
    const { req, res } = ctx;
    ctx.target = 'web';
    let found: PageLookup;
    try {
      found = await plugin.lookup(key, this.options.fetchFor(ctx.requestId));
    } catch (err) {
      this.options.logger.warn(
        { err, requestId: ctx.requestId, page: ctx.pathname },
        'page details unavailable',
      );
      return false;
    }
    const site = this.options.staticSite;
    if (found.kind === 'found') {
      const { head, initial } = found;
      const tags = head ? renderHeadTags(head, this.options.publicOrigin) : undefined;
      const preloads = fetchPreloadTags(found.preload);
      // The data is public (the plug-in reads public answers with no cookie of the visitor's): the same bytes for
      // everyone, so the page's ETag and shared caches hold no one's own data.
      await site.sendIndex(req, res, ctx.pathname, (html) => {
        const withHead = tags === undefined ? html : injectHead(html, tags);
        const withPreloads = preloads === undefined ? withHead : injectPreloads(withHead, preloads);
        return initial === undefined ? withPreloads : injectInitialData(withPreloads, initial);
      });
      return true;
    }
    if (found.kind === 'missing') {
      await site.sendIndex(req, res, ctx.pathname, (html) => injectHead(html, NOINDEX_TAG), 404);
      return true;
    }
    return false;
  }
}
