import { readdir } from 'node:fs/promises';
import { collectDefaultMetrics, Gauge, Registry, type Metric } from 'prom-client';

/**
 * prom-client's default metrics whose every scrape walks each handle or file descriptor of the process on the event
 * loop: `process._getActiveHandles()` (twice), `process.getActiveResourcesInfo()` (twice) and a synchronous
 * `readdirSync('/proc/self/fd')`. A chat replica holding 9,500 sockets stalled 87–132 ms on one scrape, which every
 * message of that moment waited for (bench/reports/chat.md). They are left out; the count of open file descriptors
 * is kept, read off the loop (below).
 */
export const PER_HANDLE_METRICS = [
  'nodejs_active_handles',
  'nodejs_active_handles_total',
  'nodejs_active_requests',
  'nodejs_active_requests_total',
  'nodejs_active_resources',
  'nodejs_active_resources_total',
  'process_open_fds',
] as const;

/**
 * The process's metrics for `registry` (every service and the gateway): prom-client's defaults — CPU, memory,
 * heap spaces, event-loop delay, GC, limits, version — but for `PER_HANDLE_METRICS`, plus `process_open_fds` read
 * by an asynchronous readdir, so a scrape costs the loop the same with ten sockets open or twenty thousand.
 */
export function registerProcessMetrics(registry: Registry, prefix = ''): void {
  const defaults = new Registry();
  collectDefaultMetrics({ register: defaults, prefix });
  const left = new Set<string>(PER_HANDLE_METRICS.map((name) => prefix + name));
  for (const { name } of defaults.getMetricsAsArray()) {
    const metric = defaults.getSingleMetric(name);
    if (metric && !left.has(name)) registry.registerMetric(metric as Metric);
  }
  if (process.platform !== 'linux') return;
  new Gauge({
    name: `${prefix}process_open_fds`,
    help: 'Number of open file descriptors.',
    registers: [registry],
    async collect() {
      try {
        // The directory's own descriptor, open while it is read, is not counted.
        this.set((await readdir('/proc/self/fd')).length - 1);
      } catch {
        // /proc not readable (a locked-down container): the figure is left out.
      }
    },
  });
}
