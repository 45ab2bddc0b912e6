import type { ClientConfig } from 'pg';
import type { DataSource } from 'typeorm';
import { PgListener } from '../../database/pg-listener';
import type { BusLogger } from '../bus-logger';

export interface OutboxListenerOptions {
  /** The DataSource whose database the listening connection opens (its URL or host, port, user, …). */
  dataSource: DataSource;
  channel: string;
  /** The advisory lock a relay holds while it sleeps (`outboxIdleLock`); `outbox_enqueue` notifies only then. */
  idleLock: string;
  logger: BusLogger;
  /** A notification arrived: a transaction that enqueued committed. */
  onNotify: () => void;
  /** LISTEN took effect, at start or after a reconnection: what committed while nobody listened can be sent. */
  onListening: () => void;
  /** Reconnection delays: doubled after each failure, from `min` up to `max`. */
  retryMs?: { min: number; max: number };
}

/** A database restart (ADR 0022's fault suite keeps it down 5 s) is heard again within a few seconds of its end. */
const RETRY_MS = { min: 250, max: 5_000 };

/** What `idle` found: this relay now sleeps on the lock, another relay does, enqueuers hold it open, or no connection. */
export type IdleState = 'held' | 'other' | 'busy' | 'down';

/**
 * One connection of its own (not the pool's) that LISTENs on the outbox channel, from `start` to `stop`, and holds
 * the schema's idle lock while the relay sleeps (ADR 0037). A lost connection (the database restarted, the backend
 * terminated, the network) is replaced with backoff, and its lock goes with it; the relay's poll covers the time in
 * between, so a missed notification delays an event but never strands it.
 */
export class OutboxListener {
  private readonly listener: PgListener;
  /** Whether this connection holds the idle lock. */
  private holding = false;

  constructor(private readonly options: OutboxListenerOptions) {
    this.listener = new PgListener({
      connection: connectionConfig(options.dataSource),
      channel: options.channel,
      applicationName: 'outbox relay',
      logger: options.logger,
      messages: {
        lost: 'outbox relay: not listening for commits; polling until it listens again',
        back: 'outbox relay: listening for commits again',
      },
      onNotify: options.onNotify,
      onListening: options.onListening,
      // The session's advisory lock ended with it.
      onLost: () => (this.holding = false),
      retryMs: options.retryMs ?? RETRY_MS,
    });
  }

  /** Whether LISTEN is in effect now. */
  get listening(): boolean {
    return this.listener.client !== undefined;
  }

  start(): void {
    void this.listener.start();
  }

  stop(): Promise<void> {
    return this.listener.stop();
  }

  /**
   * Takes the idle lock, without waiting: 'held' when this relay now holds it — the relay must then look at the
   * outbox once more before it sleeps, since an enqueue that skipped its notification committed before the lock was
   * granted; 'other' when another relay holds it (that one sleeps, so enqueues notify: this relay may sleep too);
   * 'busy' when transactions that enqueued without notifying have not committed yet (the relay must look again soon).
   */
  async idle(): Promise<IdleState> {
    const client = this.listener.client;
    if (!client) return 'down';
    if (this.holding) return 'held';
    try {
      const key = this.options.idleLock;
      const { rows } = await client.query<{ got: boolean }>(
        'SELECT pg_try_advisory_lock(hashtextextended($1, 0)) AS got',
        [key],
      );
      if (rows[0]?.got) {
        this.holding = true;
        return 'held';
      }
      const held = await client.query<{ other: boolean }>(
        `SELECT EXISTS (
           SELECT 1 FROM pg_locks l
            WHERE l.locktype = 'advisory' AND l.granted AND l.mode = 'ExclusiveLock' AND l.objsubid = 1
              AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
              AND ((l.classid::bigint << 32) | l.objid::bigint) = hashtextextended($1, 0)
         ) AS other`,
        [key],
      );
      return held.rows[0]?.other ? 'other' : 'busy';
    } catch {
      // The connection's own error handler replaces it.
      return 'down';
    }
  }

  /** Gives the idle lock back (the relay is awake): from now on enqueues skip their notification. */
  async awake(): Promise<void> {
    if (!this.holding) return;
    this.holding = false;
    await this.listener.client
      ?.query('SELECT pg_advisory_unlock(hashtextextended($1, 0))', [this.options.idleLock])
      .catch(() => undefined);
  }
}

/** The pg connection settings of a TypeORM postgres DataSource (a URL's parts win over the separate options). */
function connectionConfig(dataSource: DataSource): ClientConfig {
  const o = dataSource.options as {
    url?: string;
    host?: string;
    port?: number;
    username?: string;
    password?: string | (() => string | Promise<string>);
    database?: string;
    ssl?: ClientConfig['ssl'];
  };
  return {
    connectionString: o.url,
    host: o.host,
    port: o.port,
    user: o.username,
    password: o.password,
    database: o.database,
    ssl: o.ssl,
  };
}
