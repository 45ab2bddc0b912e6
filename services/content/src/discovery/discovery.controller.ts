import { Controller, Get, Inject, NotFoundException, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Public } from '@district/nest-common';
import { sendCached } from '../http/etag';
import { SiteSettingsService } from '../settings/site-settings.service';
import { DiscoveryService } from './discovery.service';

/** Crawlers and feed readers poll these; a short shared cache plus the ETag keeps that cheap. */
const CRAWLER_CACHE = 'public, max-age=300';

@Controller()
@Public()
export class DiscoveryController {
  constructor(
    @Inject(DiscoveryService) private readonly discovery: DiscoveryService,
    @Inject(SiteSettingsService) private readonly settings: SiteSettingsService,
  ) {}

  @Get('sitemap.xml')
  async sitemap(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<FastifyReply> {
    if (!(await this.settings.get()).sitemapEnabled) throw new NotFoundException('Not found');
    const { xml } = await this.discovery.sitemap();
    return sendCached(request, reply, xml, {
      contentType: 'application/xml; charset=utf-8',
      cacheControl: CRAWLER_CACHE,
    });
  }

  @Get('robots.txt')
  async robots(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<FastifyReply> {
    return sendCached(request, reply, await this.discovery.robots(), {
      contentType: 'text/plain; charset=utf-8',
      cacheControl: CRAWLER_CACHE,
    });
  }

  @Get('rss.xml')
  async rss(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<FastifyReply> {
    return sendCached(request, reply, await this.discovery.rss(), {
      contentType: 'application/rss+xml; charset=utf-8',
      cacheControl: CRAWLER_CACHE,
    });
  }
}
