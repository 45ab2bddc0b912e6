import { Counter, Histogram, Registry } from 'prom-client';
import { LabelledCounter, LabelledHistogram } from './request-metrics';

const BUCKETS = [0.001, 0.01, 0.1, 1];
const OBSERVATIONS: Array<[string, string, number]> = [
  ['content', '200', 0.0004],
  ['content', '200', 0.004],
  ['content', '200', 0.001],
  ['identity', '401', 0.2],
  ['content', '200', 3],
  ['none', '404', 0.00001],
];

/** The same observations through prom-client's own metrics and through ours, in registries with a default label. */
async function expositions(): Promise<[string, string]> {
  const theirs = new Registry();
  const ours = new Registry();
  for (const registry of [theirs, ours]) registry.setDefaultLabels({ service: 'gateway-test' });
  const counter = new Counter({
    name: 't_requests_total',
    help: 'Requests',
    labelNames: ['target', 'status'],
    registers: [theirs],
  });
  const histogram = new Histogram({
    name: 't_seconds',
    help: 'Time',
    labelNames: ['target', 'status'],
    buckets: BUCKETS,
    registers: [theirs],
  });
  const fastCounter = new LabelledCounter({
    name: 't_requests_total',
    help: 'Requests',
    labelNames: ['target', 'status'],
    registers: [ours],
  });
  const fastHistogram = new LabelledHistogram({
    name: 't_seconds',
    help: 'Time',
    labelNames: ['target', 'status'],
    buckets: BUCKETS,
    registers: [ours],
  });
  for (const [target, status, seconds] of OBSERVATIONS) {
    counter.inc({ target, status });
    histogram.observe({ target, status }, seconds);
    fastCounter.inc([target, status]);
    fastHistogram.observe([target, status], seconds);
  }
  return [await theirs.metrics(), await ours.metrics()];
}

/** Each sample line as `name{labels sorted} value`, and the HELP/TYPE lines as they are, sorted. */
function samples(text: string): string[] {
  return text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => {
      const match = /^([a-z_]+)\{([^}]*)\} (.+)$/.exec(line);
      if (!match) return line;
      const labels = match[2]
        .split(/,(?=[a-z_]+=)/)
        .sort()
        .join(',');
      return `${match[1]}{${labels}} ${match[3]}`;
    })
    .sort();
}

describe('LabelledCounter and LabelledHistogram', () => {
  it("expose the same series, labels and values as prom-client's Counter and Histogram for the same observations", async () => {
    const [theirs, ours] = await expositions();
    expect(samples(ours)).toEqual(samples(theirs));
    expect(ours).toContain(
      't_seconds_bucket{le="0.01",target="content",status="200",service="gateway-test"} 3',
    );
    expect(ours).toContain('t_requests_total{target="content",status="200",service="gateway-test"} 4');
  });

  it('start again from nothing when the registry resets its metrics, and refuse a wrong number of label values', async () => {
    const registry = new Registry();
    const histogram = new LabelledHistogram({
      name: 'r_seconds',
      help: 'Time',
      labelNames: ['a', 'b'],
      buckets: BUCKETS,
      registers: [registry],
    });
    histogram.observe(['x', 'y'], 0.5);
    registry.resetMetrics();
    expect(await registry.metrics()).not.toContain('r_seconds_count');
    expect(() => histogram.observe(['x'], 0.5)).toThrow('r_seconds takes 2 label values, got 1');
  });
});
