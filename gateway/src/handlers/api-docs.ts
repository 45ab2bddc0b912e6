import { API_DOCS_JSON_PATH, API_DOCS_PATH, type ApiDocs, renderDocsPage } from '../api-docs';
import { sendJson, sendJsonError } from '../json-response';
import type { GatewayHandler, RequestContext } from './handler';

/** `/api/docs` (the page) and `/api/docs/openapi.json` (the merged OpenAPI document). */
export class ApiDocsHandler implements GatewayHandler {
  readonly name = 'api-docs';

  constructor(private readonly docs: ApiDocs) {}

  handle(ctx: RequestContext): boolean | Promise<boolean> {
    if (ctx.pathname !== API_DOCS_PATH && ctx.pathname !== API_DOCS_JSON_PATH) return false;
    ctx.target = 'gateway';
    return this.answer(ctx).then(() => true);
  }

  private async answer({ req, res, pathname }: RequestContext): Promise<void> {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      sendJsonError(res, 405, 'Method not allowed', { Allow: 'GET, HEAD' });
      return;
    }
    const doc = await this.docs.document();
    if (pathname === API_DOCS_JSON_PATH) {
      sendJson(res, 200, doc, { 'Cache-Control': 'no-cache' });
      return;
    }
    const html = renderDocsPage(doc);
    res.statusCode = 200;
    res.setHeader('Content-Type', 'text/html; charset=utf-8');
    res.setHeader('Cache-Control', 'no-cache');
    res.setHeader('Content-Length', Buffer.byteLength(html));
    res.end(req.method === 'HEAD' ? undefined : html);
  }
}
