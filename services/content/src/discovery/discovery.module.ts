import { Module } from '@nestjs/common';
import { PostsModule } from '../posts/posts.module';
import { SettingsModule } from '../settings/settings.module';
import { DiscoveryController } from './discovery.controller';
import { DiscoveryRepository } from './discovery.repository';
import { DiscoveryService } from './discovery.service';
import { SitemapEventsConsumer } from './sitemap-events.consumer';

/** What crawlers and feed readers fetch, and the consumer that keeps the stored sitemap current. */
@Module({
  imports: [PostsModule, SettingsModule],
  // SitemapEventsConsumer handles content.post.* events (@EventPattern), run by the platform's bus transport.
  controllers: [DiscoveryController, SitemapEventsConsumer],
  providers: [DiscoveryRepository, DiscoveryService],
  exports: [DiscoveryService],
})
export class DiscoveryModule {}
