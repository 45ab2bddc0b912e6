import { Module } from '@nestjs/common';
import { SiteSettingsRepository } from './site-settings.repository';
import { SiteSettingsService } from './site-settings.service';

/** The site settings row, read by comments (moderation), discovery (robots, feed) and the SEO admin. */
@Module({
  providers: [SiteSettingsRepository, SiteSettingsService],
  exports: [SiteSettingsService],
})
export class SettingsModule {}
