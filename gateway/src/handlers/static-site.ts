import type { StaticSite } from '../static-site';
import type { GatewayHandler, RequestContext } from './handler';

/** Last: every other path is the built SPA (a file, or index.html for a client route). */
export class StaticSiteHandler implements GatewayHandler {
  readonly name = 'static-site';

  constructor(private readonly site: StaticSite) {}

  handle(ctx: RequestContext): Promise<boolean> {
    ctx.target = 'web';
    return this.site.handle(ctx.req, ctx.res, ctx.pathname).then(() => true);
  }
}
