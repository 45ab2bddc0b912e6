import { Controller, Inject } from '@nestjs/common';
import { EventPattern } from '@nestjs/microservices';
import { Subjects } from '@district/contracts';
import { PLATFORM_LOGGER, type Logger } from '@district/nest-common';
import { DiscoveryService } from './discovery.service';

/**
 * Keeps the stored sitemap current: every content.post.* event (a post published or changed while published,
 * unpublished, deleted) regenerates it. One durable per subject, shared by every content replica: each change
 * regenerates once. Regenerating is idempotent and takes its own transaction (and lock), so these handlers
 * need no inbox. A failure throws, and the bus retries with back-off.
 */
@Controller()
export class SitemapEventsConsumer {
  constructor(
    @Inject(DiscoveryService) private readonly discovery: DiscoveryService,
    @Inject(PLATFORM_LOGGER) private readonly logger: Logger,
  ) {}

  @EventPattern<string>(Subjects.contentPostPublished, { durable: 'content-sitemap-published', inbox: false })
  published(): Promise<void> {
    return this.regenerate(Subjects.contentPostPublished);
  }

  @EventPattern<string>(Subjects.contentPostUnpublished, {
    durable: 'content-sitemap-unpublished',
    inbox: false,
  })
  unpublished(): Promise<void> {
    return this.regenerate(Subjects.contentPostUnpublished);
  }

  @EventPattern<string>(Subjects.contentPostDeleted, { durable: 'content-sitemap-deleted', inbox: false })
  deleted(): Promise<void> {
    return this.regenerate(Subjects.contentPostDeleted);
  }

  private async regenerate(subject: string): Promise<void> {
    const { urlCount } = await this.discovery.regenerateSitemap();
    this.logger.debug({ subject, urlCount }, 'sitemap regenerated');
  }
}
