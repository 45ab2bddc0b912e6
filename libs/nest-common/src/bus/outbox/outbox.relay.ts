import type { DataSource } from 'typeorm';
import type { EventBus } from '../bus.port';
import type { BusLogger } from '../bus-logger';
import { errorMessage } from '../bus-rules';
import type { MessagingMetrics, OutboxBacklog } from '../../health/messaging-metrics';
import { messagingTable } from './messaging-tables';

export interface OutboxRelayOptions {
  dataSource: DataSource;
  bus: EventBus;
  logger: BusLogger;
  /** Schema of the outbox; defaults to the DataSource's `schema` option. */
  schema?: string;
  /** Safety-net poll when nobody nudges (another replica's commits, a missed nudge). */
  pollIntervalMs?: number;
  /** Rows locked and published per transaction. */
  batchSize?: number;
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
 * Rows are claimed with SELECT … FOR UPDATE SKIP LOCKED, so replicas running their own relay never send the
 * same row concurrently; the row id is the bus message id, so a row re-sent after a crash between publish and
 * commit is dropped by the broker's dedupe (and by inboxes beyond its window). When the bus fails, the row
 * stays pending and the relay retries with backoff: an outage delays events but never drops them.
 */
export class OutboxRelay {
  private readonly pollIntervalMs: number;
  private readonly batchSize: number;
  private readonly maxBackoffMs: number;
  private readonly retentionMs: number;
  private readonly inboxRetentionMs: number;
  private readonly cleanupIntervalMs: number;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private started = false;
  private again = false;
  private failures = 0;
  private lastCleanup = 0;

  constructor(private readonly options: OutboxRelayOptions) {
    this.pollIntervalMs = options.pollIntervalMs ?? 1_000;
    this.batchSize = options.batchSize ?? 100;
    this.maxBackoffMs = options.maxBackoffMs ?? 30_000;
    this.retentionMs = options.retentionMs ?? 7 * DAY_MS;
    this.inboxRetentionMs = options.inboxRetentionMs ?? 30 * DAY_MS;
    this.cleanupIntervalMs = options.cleanupIntervalMs ?? 3600_000;
  }

  start(): void {
    if (this.started) return;
    this.started = true;
    this.schedule(0);
  }

  /** Relay now. The platform calls it after each commit that enqueued events (`afterOutboxCommit`). */
  nudge(): void {
    if (!this.started) return;
    if (this.running) {
      this.again = true;
      return;
    }
    // While the bus is failing, nudges do not shorten the backoff.
    if (this.failures === 0) this.schedule(0);
  }

  /** Stops polling and waits for a batch in progress to finish. */
  async stop(): Promise<void> {
    this.started = false;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
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
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.running = this.run().finally(() => {
        this.running = undefined;
      });
    }, delayMs);
    // A pending poll must not keep a stopping process alive.
    this.timer.unref();
  }

  private async run(): Promise<void> {
    this.again = false;
    let next = this.pollIntervalMs;
    try {
      const result = await this.relayBatch();
      if (result.published > 0) this.options.metrics?.published.inc(result.published);
      if (result.failed) {
        this.options.metrics?.publishFailures.inc();
        this.failures++;
        next = this.backoff();
      } else {
        if (this.failures > 0)
          this.options.logger.info({ published: result.published }, 'outbox relay recovered');
        this.failures = 0;
        // A full batch means more may be waiting.
        if (result.locked === this.batchSize || this.again) next = 0;
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

  private backoff(): number {
    return Math.min(this.pollIntervalMs * 2 ** (this.failures - 1), this.maxBackoffMs);
  }

  private async relayBatch(): Promise<BatchResult> {
    const { dataSource, bus, logger, schema } = this.options;
    const table = messagingTable(dataSource, 'outbox', schema);
    return dataSource.transaction(async (manager) => {
      const rows: {
        id: string;
        subject: string;
        payload: unknown;
        headers: Record<string, string> | null;
      }[] = await manager.query(
        `SELECT "id", "subject", "payload", "headers" FROM ${table}
            WHERE "published_at" IS NULL ORDER BY "seq" LIMIT $1 FOR UPDATE SKIP LOCKED`,
        [this.batchSize],
      );
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
        await manager.query(
          `UPDATE ${table} SET "published_at" = now(), "attempts" = "attempts" + 1 WHERE "id" = ANY($1::uuid[])`,
          [published],
        );
      }
      if (failure) {
        await manager.query(
          `UPDATE ${table} SET "attempts" = "attempts" + 1, "last_error" = $2 WHERE "id" = $1`,
          [failure.id, failure.error.slice(0, 1000)],
        );
      }
      return { locked: rows.length, published: published.length, failed: failure !== undefined };
    });
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
