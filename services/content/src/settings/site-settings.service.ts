import { Inject, Injectable } from '@nestjs/common';
import { DEFAULT_SEO_SETTINGS, seoSettingsSchema, type SeoSettings } from '@district/contracts';
import { SiteSettingsRepository } from './site-settings.repository';

const SITE_KEY = 'site';
const SITEMAP_KEY = 'sitemap';

/**
 * The site's settings (spec §3 SEO settings, plus comment moderation), one JSON row. Fields never saved
 * read as the spec's defaults, so a setting added later needs no data migration.
 */
@Injectable()
export class SiteSettingsService {
  constructor(@Inject(SiteSettingsRepository) private readonly settings: SiteSettingsRepository) {}

  async get(): Promise<SeoSettings> {
    const stored = seoSettingsSchema.partial().safeParse((await this.settings.get(SITE_KEY)) ?? {});
    return { ...DEFAULT_SEO_SETTINGS, ...(stored.success ? stored.data : {}) };
  }

  /** Merges the fields sent into the stored settings, so concurrent saves of different fields both land. */
  async save(changes: Partial<SeoSettings>): Promise<SeoSettings> {
    await this.settings.merge(SITE_KEY, changes);
    return this.get();
  }

  async recordSitemapGenerated(at: Date, urlCount: number): Promise<void> {
    await this.settings.replace(SITEMAP_KEY, { generatedAt: at.toISOString(), urlCount });
  }
}
