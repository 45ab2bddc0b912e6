import { Body, Controller, Get, HttpCode, Inject, Post, UseInterceptors } from '@nestjs/common';
import { ContentMessages, seoSettingsRequestSchema, type SeoSettings } from '@district/contracts';
import { PLATFORM_RUNTIME, Public, RequireAdmin, ZodPipe, type PlatformRuntime } from '@district/nest-common';
import type { z } from 'zod';
import { ContentErrorsInterceptor } from '../content-errors.interceptor';
import { InvalidInputError } from '../content.errors';
import { DiscoveryService } from '../discovery/discovery.service';
import { SiteSettingsService } from '../settings/site-settings.service';

/**
 * SEO settings (spec §7). Reading is public: every field ends up in the site's pages anyway (title,
 * description, keywords, analytics and verification ids). Saving and sitemap generation are for admins.
 */
@Controller('api/seo')
@UseInterceptors(ContentErrorsInterceptor)
export class SeoController {
  constructor(
    @Inject(SiteSettingsService) private readonly settings: SiteSettingsService,
    @Inject(DiscoveryService) private readonly discovery: DiscoveryService,
    @Inject(PLATFORM_RUNTIME) private readonly runtime: PlatformRuntime,
  ) {}

  @Get('settings')
  @Public()
  get(): Promise<SeoSettings> {
    return this.settings.get();
  }

  @Post('settings')
  @RequireAdmin()
  @HttpCode(200)
  save(
    @Body(new ZodPipe(seoSettingsRequestSchema)) body: z.infer<typeof seoSettingsRequestSchema>,
  ): Promise<SeoSettings> {
    return this.settings.save(body);
  }

  /**
   * Regenerates the stored /sitemap.xml now (events keep it current anyway; this is the admin's "do it now"),
   * records when, and says how many URLs it holds.
   */
  @Post('sitemap/generate')
  @RequireAdmin()
  @HttpCode(200)
  async generate(): Promise<{ url: string; urlCount: number; generatedAt: string }> {
    const settings = await this.settings.get();
    if (!settings.sitemapEnabled) throw new InvalidInputError(ContentMessages.sitemapDisabled);
    const { urlCount, generatedAt } = await this.discovery.regenerateSitemap();
    await this.settings.recordSitemapGenerated(generatedAt, urlCount);
    return { url: `${this.runtime.publicUrl}/sitemap.xml`, urlCount, generatedAt: generatedAt.toISOString() };
  }
}
