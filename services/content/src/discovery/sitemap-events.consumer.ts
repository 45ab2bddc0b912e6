import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { Subjects } from '@district/contracts';
import {
  EVENT_BUS,
  PLATFORM_LOGGER,
  type BusMessage,
  type BusSubscription,
  type EventBus,
  type Logger,
} from '@district/nest-common';
import { DiscoveryService } from './discovery.service';

/** One durable consumer per subject, shared by every content replica: each change regenerates once. */
export const SITEMAP_CONSUMERS = {
  [Subjects.contentPostPublished]: 'content-sitemap-published',
  [Subjects.contentPostUnpublished]: 'content-sitemap-unpublished',
  [Subjects.contentPostDeleted]: 'content-sitemap-deleted',
} as const;

/**
 * Keeps the stored sitemap current: every content.post.* event (a post published or changed while published,
 * unpublished, deleted) regenerates it. Regenerating is idempotent, so redeliveries need no inbox; a failure
 * throws, and the bus retries with back-off.
 */
@Injectable()
export class SitemapEventsConsumer implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly subscriptions: BusSubscription[] = [];

  constructor(
    @Inject(EVENT_BUS) private readonly bus: EventBus,
    @Inject(DiscoveryService) private readonly discovery: DiscoveryService,
    @Inject(PLATFORM_LOGGER) private readonly logger: Logger,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    for (const [subject, durable] of Object.entries(SITEMAP_CONSUMERS)) {
      this.subscriptions.push(await this.bus.subscribe(subject, (m) => this.postChanged(m), { durable }));
    }
  }

  async onApplicationShutdown(): Promise<void> {
    await Promise.all(this.subscriptions.map((s) => s.unsubscribe()));
  }

  async postChanged(message: BusMessage): Promise<void> {
    const { urlCount } = await this.discovery.regenerateSitemap();
    this.logger.debug({ subject: message.subject, messageId: message.id, urlCount }, 'sitemap regenerated');
  }
}
