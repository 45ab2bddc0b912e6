import { createHash } from 'node:crypto';
import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { PLATFORM_LOGGER, PLATFORM_RUNTIME, type Logger, type PlatformRuntime } from '@district/nest-common';
import { PublicListCache } from './public-list-cache';
import { PublicListNotifications } from './public-list-notifications.repository';

/**
 * The PostgreSQL notification channel on which the triggers of migration 1732800000000 announce a change of
 * `posts` or `categories` in `schema`. Hashed, because a channel name is at most 63 bytes and schema names
 * can be nearly that long; each schema (the service's, or a test's throwaway one) has its own.
 */
export function invalidationChannel(schema: string): string {
  return `content_public_list_${createHash('md5').update(schema).digest('hex')}`;
}

/** Reconnection delays: doubled after each failure, from `min` up to `max`. */
const RETRY_MS = { min: 500, max: 30_000 };

/**
 * Holds one connection that LISTENs on the schema's channel, from the application's start to its shutdown.
 * PostgreSQL sends a notification to every listening connection when, and only when, the writing transaction
 * commits, so every replica hears every change of the public list (posts or categories, by any replica, any
 * code path, or SQL by hand) and the cache forgets its pages. While the connection is down nothing can be
 * heard, which the cache is told, and it reconnects with backoff.
 */
@Injectable()
export class PublicListListener implements OnApplicationBootstrap, OnApplicationShutdown {
  readonly channel: string;
  private readonly databaseUrl: string;
  private client: Client | undefined;
  private timer: NodeJS.Timeout | undefined;
  private failures = 0;
  private stopped = false;

  constructor(
    @Inject(PublicListCache) private readonly cache: PublicListCache,
    @Inject(PLATFORM_LOGGER) private readonly logger: Logger,
    @Inject(PLATFORM_RUNTIME) runtime: PlatformRuntime,
    @Inject(DataSource) dataSource: DataSource,
  ) {
    this.databaseUrl = runtime.databaseUrl;
    // The schema the platform put this service in (tests: a throwaway one), as the triggers see it.
    this.channel = invalidationChannel((dataSource.options as { schema?: string }).schema ?? 'public');
  }

  /** Connects once; when that fails, logs and keeps trying in the background (the list still works, uncached). */
  onApplicationBootstrap(): Promise<void> {
    this.stopped = false;
    return this.connect();
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const client = this.client;
    this.client = undefined;
    this.cache.setHearing(false);
    await client?.end().catch(() => undefined);
  }

  private async connect(): Promise<void> {
    if (this.stopped) return;
    const client = new Client({
      connectionString: this.databaseUrl,
      application_name: 'content public list listener',
      keepAlive: true,
      // Start-up waits for the first attempt; a database that does not answer must not hold it up for long.
      connectionTimeoutMillis: 5000,
    });
    let lost = false;
    const onLost = (error?: unknown) => {
      if (lost) return;
      lost = true;
      if (this.client === client) this.client = undefined;
      this.cache.setHearing(false);
      void client.end().catch(() => undefined);
      if (this.stopped) return;
      const { min, max } = RETRY_MS;
      const delay = Math.min(max, min * 2 ** this.failures);
      this.failures += 1;
      this.logger.warn(
        { err: error, retryInMs: delay },
        'public post list: change notifications lost; serving from the database until they are back',
      );
      this.timer = setTimeout(() => void this.connect(), delay);
      this.timer.unref();
    };
    client.on('notification', (message) => {
      if (message.channel === this.channel) this.cache.invalidate();
    });
    client.on('error', onLost);
    client.on('end', () => onLost());
    try {
      await client.connect();
      await PublicListNotifications.listen(client, this.channel);
    } catch (error) {
      onLost(error);
      return;
    }
    if (lost) return;
    if (this.stopped) {
      await client.end().catch(() => undefined);
      return;
    }
    this.client = client;
    this.failures = 0;
    this.cache.setHearing(true);
  }
}
