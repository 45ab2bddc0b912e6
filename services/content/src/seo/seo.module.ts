import { Module } from '@nestjs/common';
import { DiscoveryModule } from '../discovery/discovery.module';
import { SettingsModule } from '../settings/settings.module';
import { SeoController } from './seo.controller';

/** The SEO admin API: the site settings, and regenerating the sitemap now. */
@Module({
  imports: [SettingsModule, DiscoveryModule],
  controllers: [SeoController],
})
export class SeoModule {}
