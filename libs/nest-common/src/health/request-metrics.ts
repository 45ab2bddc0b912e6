import type { Registry } from 'prom-client';

/**
 * Per-request counters and histograms with prom-client's exposition, for the one observation every request makes
 * (the gateway's and each service's). prom-client checks every label name and hashes the label object on each
 * `inc`/`observe`; here the label values come in a fixed order and find their series through a map per label,
 * which makes an observation a few lookups and additions (ADR 0016). The registry formats them like its own
 * metrics (default labels included); everything else stays on prom-client.
 */

type Node = Map<string, Node | Series>;

class Series {
  /** Observations per bucket (not cumulative); the last slot is +Inf. */
  readonly counts: number[];
  sum = 0;
  count = 0;

  constructor(
    readonly labels: Record<string, string>,
    buckets: number,
  ) {
    this.counts = new Array<number>(buckets + 1).fill(0);
  }
}

interface MetricValue {
  value: number;
  labels: Record<string, string | number>;
  metricName?: string;
}

abstract class LabelledMetric<L extends string> {
  readonly aggregator = 'sum';
  private readonly root: Node = new Map();
  protected readonly series: Series[] = [];

  protected constructor(
    readonly name: string,
    readonly help: string,
    private readonly labelNames: readonly L[],
    private readonly buckets: number,
    registers: readonly Registry[],
  ) {
    for (const registry of registers) registry.registerMetric(this as never);
  }

  /** The series of these label values, given in the order of `labelNames`. */
  protected seriesOf(values: readonly string[]): Series {
    let node = this.root;
    const last = values.length - 1;
    for (let i = 0; i < last; i++) {
      let next = node.get(values[i]) as Node | undefined;
      if (next === undefined) {
        next = new Map();
        node.set(values[i], next);
      }
      node = next;
    }
    let series = node.get(values[last]) as Series | undefined;
    if (series === undefined) {
      if (values.length !== this.labelNames.length) {
        throw new Error(`${this.name} takes ${this.labelNames.length} label values, got ${values.length}`);
      }
      const labels: Record<string, string> = {};
      this.labelNames.forEach((name, i) => (labels[name] = values[i]));
      series = new Series(labels, this.buckets);
      node.set(values[last], series);
      this.series.push(series);
    }
    return series;
  }

  /** Called by the registry's resetMetrics(). */
  reset(): void {
    this.root.clear();
    this.series.length = 0;
  }
}

export class LabelledCounter<L extends string> extends LabelledMetric<L> {
  readonly type = 'counter';

  constructor(options: {
    name: string;
    help: string;
    labelNames: readonly L[];
    registers: readonly Registry[];
  }) {
    super(options.name, options.help, options.labelNames, 0, options.registers);
  }

  inc(values: readonly string[]): void {
    this.seriesOf(values).count += 1;
  }

  /** What the registry formats (prom-client's metric shape). */
  get(): { name: string; help: string; type: string; aggregator: string; values: MetricValue[] } {
    return {
      name: this.name,
      help: this.help,
      type: this.type,
      aggregator: this.aggregator,
      values: this.series.map((s) => ({ value: s.count, labels: { ...s.labels } })),
    };
  }
}

export class LabelledHistogram<L extends string> extends LabelledMetric<L> {
  readonly type = 'histogram';
  private readonly upperBounds: readonly number[];

  constructor(options: {
    name: string;
    help: string;
    labelNames: readonly L[];
    buckets: readonly number[];
    registers: readonly Registry[];
  }) {
    super(options.name, options.help, options.labelNames, options.buckets.length, options.registers);
    this.upperBounds = [...options.buckets].sort((a, b) => a - b);
  }

  observe(values: readonly string[], value: number): void {
    if (!Number.isFinite(value)) return;
    const series = this.seriesOf(values);
    const bounds = this.upperBounds;
    let i = 0;
    while (i < bounds.length && value > bounds[i]) i++;
    series.counts[i] += 1;
    series.sum += value;
    series.count += 1;
  }

  /** What the registry formats: cumulative buckets (`le` first, as prom-client writes them), sum and count. */
  get(): { name: string; help: string; type: string; aggregator: string; values: MetricValue[] } {
    const values: MetricValue[] = [];
    for (const series of this.series) {
      let cumulative = 0;
      this.upperBounds.forEach((bound, i) => {
        cumulative += series.counts[i];
        values.push({
          metricName: `${this.name}_bucket`,
          labels: { le: bound, ...series.labels },
          value: cumulative,
        });
      });
      values.push({
        metricName: `${this.name}_bucket`,
        labels: { le: '+Inf', ...series.labels },
        value: series.count,
      });
      values.push({ metricName: `${this.name}_sum`, labels: { ...series.labels }, value: series.sum });
      values.push({ metricName: `${this.name}_count`, labels: { ...series.labels }, value: series.count });
    }
    return { name: this.name, help: this.help, type: this.type, aggregator: this.aggregator, values };
  }
}
