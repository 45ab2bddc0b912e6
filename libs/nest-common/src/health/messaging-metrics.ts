import { Counter, Gauge, type Registry } from 'prom-client';

/** What the outbox holds unsent: the alert on backlog growth reads these. */
export interface OutboxBacklog {
  pending: number;
  /** Age of the oldest unsent event, 0 when none. */
  oldestSeconds: number;
}

/** One durable consumer's position in the stream (NATS JetStream's consumer info). */
export interface ConsumerLag {
  durable: string;
  /** Messages in the stream the consumer has not been delivered yet. */
  pending: number;
  /** Delivered, not yet acknowledged. */
  ackPending: number;
  /** Messages the broker delivered more than once (its own count). */
  redelivered: number;
}

export type HandledOutcome = 'processed' | 'duplicate' | 'invalid' | 'failed';

/**
 * The messaging figures of one service (issue #14 "Operations signals"): the outbox's backlog and publishing, each
 * durable consumer's lag, redeliveries and outcomes. Gauges read their source when scraped, so a figure is never
 * older than the scrape; a source that fails leaves the gauge out of that scrape rather than failing /metrics.
 */
export class MessagingMetrics {
  readonly published: Counter<string>;
  readonly publishFailures: Counter<string>;
  readonly handled: Counter<'durable' | 'outcome'>;
  readonly redeliveries: Counter<'durable'>;

  constructor(
    registry: Registry,
    sources: { outboxBacklog?: () => Promise<OutboxBacklog>; consumerLag?: () => Promise<ConsumerLag[]> },
  ) {
    const registers = [registry];
    this.published = new Counter({
      name: 'outbox_published_total',
      help: 'Outbox events sent to the bus',
      registers,
    });
    this.publishFailures = new Counter({
      name: 'outbox_publish_failures_total',
      help: 'Outbox relay rounds that stopped at an event the bus refused (retried with back-off)',
      registers,
    });
    this.handled = new Counter({
      name: 'bus_events_handled_total',
      help: 'Events delivered to a durable consumer, by outcome (duplicate: already handled, skipped by the inbox)',
      labelNames: ['durable', 'outcome'],
      registers,
    });
    this.redeliveries = new Counter({
      name: 'bus_redeliveries_total',
      help: 'Deliveries of an event after its first (a handler failed or did not acknowledge in time)',
      labelNames: ['durable'],
      registers,
    });
    const backlog = sources.outboxBacklog;
    if (backlog) {
      let last: Promise<OutboxBacklog | null> | undefined;
      // One query per scrape for both gauges.
      const read = () =>
        (last ??= backlog()
          .catch(() => null)
          .finally(() => setTimeout(() => (last = undefined), 0)));
      new Gauge({
        name: 'outbox_pending_events',
        help: 'Events committed to the outbox and not yet sent to the bus',
        registers,
        async collect() {
          const b = await read();
          if (b) this.set(b.pending);
        },
      });
      new Gauge({
        name: 'outbox_oldest_pending_seconds',
        help: 'Age of the oldest event not yet sent to the bus (0 when none)',
        registers,
        async collect() {
          const b = await read();
          if (b) this.set(b.oldestSeconds);
        },
      });
    }
    const lag = sources.consumerLag;
    if (lag) {
      let last: Promise<ConsumerLag[]> | undefined;
      const read = () =>
        (last ??= lag()
          .catch(() => [])
          .finally(() => setTimeout(() => (last = undefined), 0)));
      const perDurable = (name: string, help: string, pick: (c: ConsumerLag) => number) =>
        new Gauge({
          name,
          help,
          labelNames: ['durable'],
          registers,
          async collect() {
            this.reset();
            for (const c of await read()) this.set({ durable: c.durable }, pick(c));
          },
        });
      perDurable(
        'bus_consumer_pending_events',
        'Events in the stream a durable consumer has not been delivered yet (its lag)',
        (c) => c.pending,
      );
      perDurable(
        'bus_consumer_ack_pending_events',
        'Events delivered to a durable consumer and not acknowledged yet',
        (c) => c.ackPending,
      );
      perDurable(
        'bus_consumer_redelivered_events',
        "Events the broker redelivered to a durable consumer (the broker's count)",
        (c) => c.redelivered,
      );
    }
  }
}
