import { Gauge, Registry } from 'prom-client';
import { LabelledCounter, LabelledHistogram, registerProcessMetrics } from '@district/nest-common';

/**
 * The gateway's Prometheus metrics, in a registry of its own: the launcher may run services in the same
 * process, and their metrics must not collide with or leak into the gateway's.
 */
export class GatewayMetrics {
  readonly registry = new Registry();
  /** Observed once per request: the platform's LabelledCounter/Histogram, not prom-client's (ADR 0016). */
  private readonly requests: LabelledCounter<'service' | 'status'>;
  private readonly duration: LabelledHistogram<'service' | 'status'>;

  constructor(
    options: {
      defaultMetrics?: boolean;
      /** Read at scrape time, so a passive mark that simply expired is reported correctly too. */
      upstreams?: () => Iterable<{ service: string; replicas: ReadonlyArray<{ url: string; up: boolean }> }>;
    } = {},
  ) {
    const upstreams = options.upstreams;
    this.requests = new LabelledCounter({
      name: 'gateway_requests_total',
      help: 'Requests answered by the gateway, by target service and status code',
      labelNames: ['service', 'status'],
      registers: [this.registry],
    });
    this.duration = new LabelledHistogram({
      name: 'gateway_request_duration_seconds',
      help: 'Time from request to the end of the response, by target service and status code',
      labelNames: ['service', 'status'],
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [this.registry],
    });
    new Gauge({
      name: 'gateway_upstream_up',
      help: '1 when the gateway sends traffic to this replica, 0 when it is considered down',
      labelNames: ['service', 'replica'],
      registers: [this.registry],
      collect() {
        if (!upstreams) return;
        for (const { service, replicas } of upstreams()) {
          for (const replica of replicas) this.set({ service, replica: replica.url }, replica.up ? 1 : 0);
        }
      },
    });
    if (options.defaultMetrics ?? true) {
      registerProcessMetrics(this.registry, 'gateway_');
    }
  }

  observe(service: string, status: number, seconds: number): void {
    const labels = [service, String(status)];
    this.requests.inc(labels);
    this.duration.observe(labels, seconds);
  }

  contentType(): string {
    return this.registry.contentType;
  }

  render(): Promise<string> {
    return this.registry.metrics();
  }
}
