import { createHash } from 'node:crypto';
import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import type { Client } from 'pg';
import { DataSource } from 'typeorm';
import {
  PgListener,
  PLATFORM_LOGGER,
  PLATFORM_RUNTIME,
  type Logger,
  type PlatformRuntime,
} from '@district/nest-common';
import { PublicListCache } from './public-list-cache';

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
  private readonly listener: PgListener;

  constructor(
    @Inject(PublicListCache) private readonly cache: PublicListCache,
    @Inject(PLATFORM_LOGGER) logger: Logger,
    @Inject(PLATFORM_RUNTIME) runtime: PlatformRuntime,
    @Inject(DataSource) dataSource: DataSource,
  ) {
    // The schema the platform put this service in (tests: a throwaway one), as the triggers see it.
    this.channel = invalidationChannel((dataSource.options as { schema?: string }).schema ?? 'public');
    this.listener = new PgListener({
      connection: { connectionString: runtime.databaseUrl },
      channel: this.channel,
      applicationName: 'content public list listener',
      logger,
      messages: {
        lost: 'public post list: change notifications lost; serving from the database until they are back',
        back: 'public post list: change notifications heard again',
      },
      onNotify: () => this.cache.invalidate(),
      onListening: () => this.cache.setHearing(true),
      onLost: () => this.cache.setHearing(false),
      retryMs: RETRY_MS,
    });
  }

  /** The listening connection while LISTEN is in effect (tests stop its notifications by hand). */
  get client(): Client | undefined {
    return this.listener.client;
  }

  /** Connects once; when that fails, logs and keeps trying in the background (the list still works, uncached). */
  onApplicationBootstrap(): Promise<void> {
    return this.listener.start();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.listener.stop();
    this.cache.setHearing(false);
  }
}
