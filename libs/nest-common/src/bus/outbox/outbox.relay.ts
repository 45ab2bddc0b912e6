import type { DataSource } from 'typeorm';
import type { EventBus } from '../bus.port';
import type { BusLogger } from '../bus-logger';
import { errorMessage } from '../bus-rules';
import type { MessagingMetrics, OutboxBacklog } from '../../health/messaging-metrics';
import { messagingSchema, messagingTable, outboxChannel, outboxIdleLock } from './messaging-tables';
import { OutboxListener } from './outbox.listener';

export interface OutboxRelayOptions {
  dataSource: DataSource;
  bus: EventBus;
  logger: BusLogger;
  /** Schema of the outbox; defaults to the DataSource's `schema` option. */
  schema?: string;
  /**
   * Listen for the commits of `outbox_enqueue` on a connection of its own and relay at each (default true; it needs
   * a schema, from `schema` or the DataSource). Without it, only the poll and `nudge` send events.
   */
  listen?: boolean;
  /** Delays between attempts to listen again after the connection was lost (the database restarted). */
  listenRetryMs?: { min: number; max: number };
  /** Safety-net poll for a notification missed while the listening connection was down. */
  pollIntervalMs?: number;
  /** Rows claimed and published per round. */
  batchSize?: number;
  /**
   * How long a nudge waits before the round it asks for (default 10 ms), so that the commits of a busy moment go
   * out in one round — one claim and one mark for all of them — instead of a round each.
   */
  nudgeDelayMs?: number;
  /**
   * How long a claim keeps other replicas' relays off its rows: longer than a round can take (one publish that
   * times out, 5 s, plus the ones before it). Rows of a relay that died mid-round wait this long.
   */
  claimMs?: number;
  /** While publishing fails, retries back off from pollIntervalMs up to this. */
  maxBackoffMs?: number;
  /** Published rows are deleted after this long. */
  retentionMs?: number;
  /** Inbox entries are deleted after this long (far beyond any redelivery). */
  inboxRetentionMs?: number;
  /** How often retention runs. */
  cleanupIntervalMs?: number;
  /** Counts sent events and failed rounds (the service's /metrics). */
  metrics?: Pick<MessagingMetrics, 'published' | 'publishFailures'>;
}

interface BatchResult {
  locked: number;
  published: number;
  failed: boolean;
}

const DAY_MS = 24 * 3600_000;
/** The longest wait between looks while enqueuers that skipped their notification keep the relay from sleeping. */
const BUSY_MAX_MS = 100;

/** What waits unsent in a service's outbox: how many events, and how old the oldest is (the backlog gauges). */
export async function outboxBacklog(dataSource: DataSource, schema?: string): Promise<OutboxBacklog> {
  const rows = (await dataSource.query(
    `SELECT count(*)::int AS "pending", COALESCE(EXTRACT(EPOCH FROM now() - min("created_at")), 0)::float8 AS "oldest"
       FROM ${messagingTable(dataSource, 'outbox', schema)} WHERE "published_at" IS NULL`,
  )) as { pending: number; oldest: number }[];
  return { pending: Number(rows[0]?.pending ?? 0), oldestSeconds: Math.max(0, Number(rows[0]?.oldest ?? 0)) };
}

/**
 * Sends committed outbox rows to the bus, oldest first, and marks them published.
 * A round claims up to `batchSize` pending rows in one statement (`claimed_until`, taken with FOR UPDATE SKIP
 * LOCKED), publishes them, and marks them published in a second: two round trips, and no transaction held open
 * while the bus answers. Replicas running their own relay never send the same row concurrently; the row id is the
 * bus message id, so a row re-sent after a crash between publish and mark (its claim expired) is dropped by the
 * broker's dedupe (and by inboxes beyond its window). When the bus fails, the row stays pending and the relay
 * retries with backoff: an outage delays events but never drops them. A round starts when a commit that enqueued is
 * heard (LISTEN on the schema's channel, ADR 0037), or at the poll, which covers the time the listening connection is
 * down.
 */
export class OutboxRelay {
  private readonly pollIntervalMs: number;
  private readonly batchSize: number;
  private readonly claimSeconds: number;
  private readonly maxBackoffMs: number;
  private readonly retentionMs: number;
  private readonly inboxRetentionMs: number;
  private readonly cleanupIntervalMs: number;
  private readonly nudgeDelayMs: number;
  private timer: NodeJS.Timeout | undefined;
  /** When the pending timer fires (ms since the epoch). */
  private dueAt = 0;
  private running: Promise<void> | undefined;
  private started = false;
  private again = false;
  private failures = 0;
  /** Runs in a row that found enqueuers still open when it tried to sleep. */
  private busyRuns = 0;
  private lastCleanup = 0;
  private readonly listener: OutboxListener | undefined;

  constructor(private readonly options: OutboxRelayOptions) {
    this.pollIntervalMs = options.pollIntervalMs ?? 1_000;
    this.batchSize = options.batchSize ?? 100;
    this.nudgeDelayMs = options.nudgeDelayMs ?? 10;
    this.claimSeconds = (options.claimMs ?? 20_000) / 1000;
    this.maxBackoffMs = options.maxBackoffMs ?? 30_000;
    this.retentionMs = options.retentionMs ?? 7 * DAY_MS;
    this.inboxRetentionMs = options.inboxRetentionMs ?? 30 * DAY_MS;
    this.cleanupIntervalMs = options.cleanupIntervalMs ?? 3600_000;
    const schema = messagingSchema(options.dataSource, options.schema);
    if (options.listen !== false && schema !== undefined) {
      this.listener = new OutboxListener({
        dataSource: options.dataSource,
        channel: outboxChannel(schema),
        idleLock: outboxIdleLock(schema),
        logger: options.logger,
        retryMs: options.listenRetryMs,
        onNotify: () => this.nudge(),
        // Whatever committed while nobody listened goes now, not at the next poll.
        onListening: () => this.nudge(),
      });
    }
  }

  /** Whether the relay hears commits now (false while its listening connection is down: it polls meanwhile). */
  get listening(): boolean {
    return this.listener?.listening ?? false;
  }

  start(): void {
    if (this.started) return;
    this.started = true;
    this.schedule(0);
    this.listener?.start();
  }

  /**
   * Relay soon (within `nudgeDelayMs`). Each notification of a commit that enqueued calls it (`outbox_enqueue`
   * notifies, PostgreSQL delivers at the commit); the nudges of a busy moment share one round.
   */
  nudge(): void {
    if (!this.started) return;
    if (this.running) {
      this.again = true;
      return;
    }
    // While the bus is failing, nudges do not shorten the backoff; a round already due sooner is kept.
    if (this.failures > 0) return;
    if (this.timer && this.dueAt <= Date.now() + this.nudgeDelayMs) return;
    this.schedule(this.nudgeDelayMs);
  }

  /** Stops polling and waits for a batch in progress to finish. */
  async stop(): Promise<void> {
    this.started = false;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    await this.listener?.stop();
    await this.running;
  }

  /** Deletes published rows past retention and old inbox entries; returns how many outbox rows went. */
  async cleanup(): Promise<number> {
    const { dataSource, schema } = this.options;
    const [, outboxDeleted] = (await dataSource.query(
      `DELETE FROM ${messagingTable(dataSource, 'outbox', schema)}
        WHERE "published_at" IS NOT NULL AND "published_at" < now() - make_interval(secs => $1)`,
      [this.retentionMs / 1000],
    )) as [unknown, number];
    await dataSource.query(
      `DELETE FROM ${messagingTable(dataSource, 'inbox', schema)} WHERE "processed_at" < now() - make_interval(secs => $1)`,
      [this.inboxRetentionMs / 1000],
    );
    return outboxDeleted;
  }

  private schedule(delayMs: number): void {
    if (!this.started) return;
    if (this.timer) clearTimeout(this.timer);
    this.dueAt = Date.now() + delayMs;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.running = this.run().finally(() => {
        this.running = undefined;
      });
    }, delayMs);
    // A pending poll must not keep a stopping process alive.
    this.timer.unref();
  }

  /**
   * One run: a round, and when it found nothing, the way to sleep (ADR 0037). Awake, the relay holds no idle lock, so
   * enqueues skip their notification; to sleep it takes the lock and looks once more, because an enqueue that skipped
   * committed before the lock was granted (it held the lock shared until then). Transactions that enqueued without
   * notifying and have not committed keep the lock from it ('busy'): it looks again soon, backing off up to 100 ms.
   */
  private async run(): Promise<void> {
    this.again = false;
    let next = this.pollIntervalMs;
    try {
      await this.listener?.awake();
      let result = await this.round();
      let busy = false;
      if (!result.failed && result.locked === 0 && !this.again && this.listener) {
        const idle = await this.listener.idle();
        if (idle === 'held') {
          result = await this.round();
          if (result.locked > 0 || result.failed) await this.listener.awake();
        }
        busy = idle === 'busy';
      }
      this.busyRuns = busy ? this.busyRuns + 1 : 0;
      if (result.failed) {
        this.failures++;
        next = this.backoff();
      } else {
        if (this.failures > 0)
          this.options.logger.info({ published: result.published }, 'outbox relay recovered');
        this.failures = 0;
        // Rows were sent: more may be waiting, so it drains until a round finds none.
        if (result.locked > 0 || this.again) next = 0;
        // A long transaction that enqueued (a replica's rehearsal, an import) keeps it awake: it looks every 100 ms
        // at most, so other commits' events, which do not notify meanwhile, wait no longer than that.
        else if (busy)
          next = Math.min(this.nudgeDelayMs * 2 ** (this.busyRuns - 1), BUSY_MAX_MS, this.pollIntervalMs);
      }
    } catch (err) {
      // The database itself failed (down, failover): same treatment as a failing bus.
      this.failures++;
      next = this.backoff();
      this.options.logger.warn({ err, failures: this.failures }, 'outbox relay could not read the outbox');
    }
    await this.cleanupIfDue();
    // A nudge that came during the clean-up (after `next` was chosen) still means "relay now".
    if (this.again && this.failures === 0) next = 0;
    this.schedule(next);
  }

  private async round(): Promise<BatchResult> {
    const result = await this.relayBatch();
    if (result.published > 0) this.options.metrics?.published.inc(result.published);
    if (result.failed) this.options.metrics?.publishFailures.inc();
    return result;
  }

  private backoff(): number {
    return Math.min(this.pollIntervalMs * 2 ** (this.failures - 1), this.maxBackoffMs);
  }

  private async relayBatch(): Promise<BatchResult> {
    const { dataSource, bus, logger, schema } = this.options;
    const table = messagingTable(dataSource, 'outbox', schema);
    type Claimed = {
      id: string;
      seq: string;
      subject: string;
      payload: unknown;
      headers: Record<string, string> | null;
    };
    // TypeORM answers an UPDATE … RETURNING as [rows, affected count].
    const [rows] = (await dataSource.query(
      `UPDATE ${table} SET "claimed_until" = now() + make_interval(secs => $2)
        WHERE "id" IN (SELECT "id" FROM ${table}
                        WHERE "published_at" IS NULL AND ("claimed_until" IS NULL OR "claimed_until" < now())
                        ORDER BY "seq" LIMIT $1 FOR UPDATE SKIP LOCKED)
        RETURNING "id", "seq", "subject", "payload", "headers"`,
      [this.batchSize, this.claimSeconds],
    )) as [Claimed[], number];
    // RETURNING keeps no order: oldest first, as committed.
    rows.sort((a, b) => (BigInt(a.seq) < BigInt(b.seq) ? -1 : 1));
    const published: string[] = [];
    let failure: { id: string; error: string } | undefined;
    for (const row of rows) {
      try {
        await bus.publish(row.subject, row.payload, { id: row.id, headers: row.headers ?? {} });
        published.push(row.id);
      } catch (err) {
        // Stop at the first failure so later events do not overtake it.
        failure = { id: row.id, error: errorMessage(err) };
        logger.warn(
          { err, messageId: row.id, subject: row.subject, failures: this.failures + 1 },
          'outbox relay could not publish; will retry',
        );
        break;
      }
    }
    if (published.length > 0) {
      await dataSource.query(
        `UPDATE ${table} SET "published_at" = now(), "attempts" = "attempts" + 1, "claimed_until" = NULL
          WHERE "id" = ANY($1::uuid[])`,
        [published],
      );
    }
    if (failure) {
      // The failed row and the ones after it are released at once, for the retry (by any replica).
      const unsent = rows.slice(published.length).map((r) => r.id);
      await dataSource.query(
        `UPDATE ${table}
            SET "claimed_until" = NULL,
                "attempts" = "attempts" + CASE WHEN "id" = $1 THEN 1 ELSE 0 END,
                "last_error" = CASE WHEN "id" = $1 THEN $2 ELSE "last_error" END
          WHERE "id" = ANY($3::uuid[])`,
        [failure.id, failure.error.slice(0, 1000), unsent],
      );
    }
    return { locked: rows.length, published: published.length, failed: failure !== undefined };
  }

  private async cleanupIfDue(): Promise<void> {
    const now = Date.now();
    if (now - this.lastCleanup < this.cleanupIntervalMs) return;
    this.lastCleanup = now;
    try {
      const deleted = await this.cleanup();
      if (deleted > 0) this.options.logger.debug({ deleted }, 'outbox cleanup');
    } catch (err) {
      this.options.logger.warn({ err }, 'outbox cleanup failed');
    }
  }
}
