import { createHash } from 'node:crypto';
import { Client } from 'pg';
import type { Logger } from '@district/nest-common';

/**
 * The PostgreSQL notification channel on which the triggers of migration 1732800000000 announce a change of
 * `posts` or `categories` in `schema`. Hashed, because a channel name is at most 63 bytes and schema names
 * can be nearly that long; each schema (the service's, or a test's throwaway one) has its own.
 */
export function invalidationChannel(schema: string): string {
  return `content_public_list_${createHash('md5').update(schema).digest('hex')}`;
}

export interface PublicListListenerOptions {
  databaseUrl: string;
  schema: string;
  /** A committed change of posts or categories (by any replica, any code path, or SQL by hand). */
  onChange(): void;
  /** Whether changes can be heard right now: false from the moment the connection is lost until it is back. */
  onHearing(hearing: boolean): void;
  logger: Logger;
  /** Reconnection delays: doubled after each failure, from `min` up to `max`. */
  retryMs?: { min: number; max: number };
}

/**
 * Holds one connection that LISTENs on the schema's channel. PostgreSQL sends a notification to every
 * listening connection when, and only when, the writing transaction commits, so every replica hears every
 * change of the public list, whoever made it. While the connection is down nothing can be heard, which the
 * cache is told, and it reconnects with backoff.
 */
export class PublicListListener {
  readonly channel: string;
  private client: Client | undefined;
  private timer: NodeJS.Timeout | undefined;
  private failures = 0;
  private stopped = false;

  constructor(private readonly options: PublicListListenerOptions) {
    this.channel = invalidationChannel(options.schema);
  }

  /** Connects once; when that fails, logs and keeps trying in the background (the list still works, uncached). */
  start(): Promise<void> {
    this.stopped = false;
    return this.connect();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const client = this.client;
    this.client = undefined;
    this.options.onHearing(false);
    await client?.end().catch(() => undefined);
  }

  private async connect(): Promise<void> {
    if (this.stopped) return;
    const client = new Client({
      connectionString: this.options.databaseUrl,
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
      this.options.onHearing(false);
      void client.end().catch(() => undefined);
      if (this.stopped) return;
      const { min, max } = this.options.retryMs ?? { min: 500, max: 30_000 };
      const delay = Math.min(max, min * 2 ** this.failures);
      this.failures += 1;
      this.options.logger.warn(
        { err: error, retryInMs: delay },
        'public post list: change notifications lost; serving from the database until they are back',
      );
      this.timer = setTimeout(() => void this.connect(), delay);
      this.timer.unref();
    };
    client.on('notification', (message) => {
      if (message.channel === this.channel) this.options.onChange();
    });
    client.on('error', onLost);
    client.on('end', () => onLost());
    try {
      await client.connect();
      await client.query(`LISTEN "${this.channel}"`);
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
    this.options.onHearing(true);
  }
}
