import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { DEFAULT_SEO_SETTINGS, seoSettingsSchema, type SeoSettings } from '@district/contracts';

const SITE_KEY = 'site';
const SITEMAP_KEY = 'sitemap';

/**
 * The site's settings (spec §3 SEO settings, plus comment moderation), one JSON row. Fields never saved
 * read as the spec's defaults, so a setting added later needs no data migration.
 */
@Injectable()
export class SiteSettingsService {
  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  async get(): Promise<SeoSettings> {
    const rows: { value: unknown }[] = await this.dataSource.query(
      `SELECT value FROM settings WHERE key = $1`,
      [SITE_KEY],
    );
    const stored = seoSettingsSchema.partial().safeParse(rows[0]?.value ?? {});
    return { ...DEFAULT_SEO_SETTINGS, ...(stored.success ? stored.data : {}) };
  }

  /** Merges the fields sent into the stored settings in one statement, so concurrent saves of different fields both land. */
  async save(changes: Partial<SeoSettings>): Promise<SeoSettings> {
    await this.dataSource.query(
      `INSERT INTO settings (key, value) VALUES ($1, $2::jsonb)
       ON CONFLICT (key) DO UPDATE SET value = settings.value || EXCLUDED.value, updated_at = now()`,
      [SITE_KEY, JSON.stringify(changes)],
    );
    return this.get();
  }

  async recordSitemapGenerated(at: Date, urlCount: number): Promise<void> {
    await this.dataSource.query(
      `INSERT INTO settings (key, value) VALUES ($1, $2::jsonb)
       ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value, updated_at = now()`,
      [SITEMAP_KEY, JSON.stringify({ generatedAt: at.toISOString(), urlCount })],
    );
  }
}
