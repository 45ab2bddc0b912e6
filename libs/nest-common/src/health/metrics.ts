import { Registry } from 'prom-client';
import { LabelledHistogram } from './request-metrics';
import { MetricsAccess } from './metrics-access';
import { registerProcessMetrics } from './process-metrics';

/** One registry per service app, so several services in one process do not mix their figures. */
export class ServiceMetrics {
  readonly registry = new Registry();
  /** Who may read the registry over /metrics; `startService` sets it from METRICS_TOKEN and the listen host. */
  readonly access = new MetricsAccess();
  /** Observed once per request (label values in this order): `LabelledHistogram`, not prom-client's. */
  readonly httpDuration: LabelledHistogram<'method' | 'route' | 'status'>;

  constructor(service: string, withDefaults: boolean) {
    this.registry.setDefaultLabels({ service });
    if (withDefaults) registerProcessMetrics(this.registry);
    this.httpDuration = new LabelledHistogram({
      name: 'http_request_duration_seconds',
      help: 'HTTP request duration by route and status',
      labelNames: ['method', 'route', 'status'],
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
      registers: [this.registry],
    });
  }
}
