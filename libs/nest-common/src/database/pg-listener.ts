import { Client, type ClientConfig } from 'pg';

/** What a listener logs: a loss (warn the first time, debug for the attempts of an outage after it), the return. */
export interface PgListenerLogger {
  warn(fields: object, message: string): void;
  debug(fields: object, message: string): void;
  info(fields: object, message: string): void;
}

export interface PgListenerOptions {
  /** Where the listening connection goes (its own connection, never the pool's). */
  connection: ClientConfig;
  channel: string;
  /** `application_name` of the connection, as `pg_stat_activity` shows it. */
  applicationName: string;
  logger: PgListenerLogger;
  /** The log lines: `lost` when the connection goes (with the retry delay), `back` when it listens again. */
  messages: { lost: string; back: string };
  /** A notification arrived on the channel. */
  onNotify: () => void;
  /** LISTEN took effect, at start or after a reconnection. */
  onListening: () => void;
  /** The connection was lost (or the first attempt failed): nothing is heard until `onListening` again. */
  onLost?: () => void;
  /** Reconnection delays: doubled after each failure, from `min` up to `max`. */
  retryMs: { min: number; max: number };
}

/**
 * One PostgreSQL connection that LISTENs on a channel from `start` to `stop` and is replaced, with backoff, when it
 * is lost (the database restarted, the backend was terminated, the network). PostgreSQL delivers a notification
 * at the notifying transaction's commit to every connection listening then, so while this one is down nothing is
 * heard: `onLost` tells the owner, which must cover the gap (the outbox relay polls; content's list cache stops
 * caching). Used by the outbox relay (ADR 0037) and content's public-list cache.
 */
export class PgListener {
  private current: Client | undefined;
  private timer: NodeJS.Timeout | undefined;
  private failures = 0;
  private stopped = true;

  constructor(private readonly options: PgListenerOptions) {}

  /** The listening connection, while LISTEN is in effect (for the owner's own session-bound queries). */
  get client(): Client | undefined {
    return this.current;
  }

  /** Starts listening; resolves after the first attempt (when it failed, the next ones run in the background). */
  start(): Promise<void> {
    if (!this.stopped) return Promise.resolve();
    this.stopped = false;
    return this.connect();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const client = this.current;
    this.current = undefined;
    await client?.end().catch(() => undefined);
  }

  private async connect(): Promise<void> {
    if (this.stopped) return;
    const { channel, logger, messages } = this.options;
    const client = new Client({
      ...this.options.connection,
      application_name: this.options.applicationName,
      keepAlive: true,
      // Start-up waits for the first attempt; a database that does not answer must not hold it up for long.
      connectionTimeoutMillis: 5_000,
    });
    let lost = false;
    const onLost = (error?: unknown) => {
      if (lost) return;
      lost = true;
      const wasListening = this.current === client;
      if (wasListening) this.current = undefined;
      this.options.onLost?.();
      void client.end().catch(() => undefined);
      if (this.stopped) return;
      const { min, max } = this.options.retryMs;
      const delay = Math.min(max, min * 2 ** this.failures);
      this.failures += 1;
      // The first loss is worth a warning; the attempts of an outage that follow are not.
      const fields = { err: error, retryInMs: delay, failures: this.failures };
      if (wasListening || this.failures === 1) logger.warn(fields, messages.lost);
      else logger.debug(fields, messages.lost);
      this.timer = setTimeout(() => void this.connect(), delay);
      this.timer.unref();
    };
    client.on('notification', (message) => {
      if (message.channel === channel) this.options.onNotify();
    });
    client.on('error', onLost);
    client.on('end', () => onLost());
    try {
      await client.connect();
      await client.query(`LISTEN "${channel.replaceAll('"', '""')}"`);
    } catch (error) {
      onLost(error);
      return;
    }
    if (lost) return;
    if (this.stopped) {
      await client.end().catch(() => undefined);
      return;
    }
    this.current = client;
    if (this.failures > 0) logger.info({ failures: this.failures }, messages.back);
    this.failures = 0;
    this.options.onListening();
  }
}
