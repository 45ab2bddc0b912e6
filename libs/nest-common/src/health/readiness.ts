import { Gauge, type Registry } from 'prom-client';

export type ReadinessCheck = () => Promise<boolean> | boolean;

export interface ReadinessCheckOptions {
  /**
   * Whether the check decides readiness (`/readyz`, which the gateway routes by and Kubernetes' readiness probe
   * reads). A dependency the service serves without, in degraded mode, is watched only: `/statusz` and the
   * `dependency_up` metric show it, and its outage never takes the service out of rotation (ADR 0043).
   * Default: true.
   */
  gates?: boolean;
}

export interface ReadinessResult {
  /** Every gating check passed. */
  ready: boolean;
  /** Every check, gating or watched, by name. */
  checks: Record<string, boolean>;
  /** The names of the checks that decide `ready`. */
  gating: string[];
}

/** How long a check may take before it counts as failed. */
const CHECK_TIMEOUT_MS = 2000;

/**
 * Named checks of what a service depends on. The gating ones decide `/readyz`: only what the service cannot serve
 * without (the database, for every service; Redis too for chat, whose live rooms are Redis). The rest are watched.
 */
export class Readiness {
  private readonly checks = new Map<string, { check: ReadinessCheck; gates: boolean }>();

  add(name: string, check: ReadinessCheck, options: ReadinessCheckOptions = {}): void {
    this.checks.set(name, { check, gates: options.gates ?? true });
  }

  async evaluate(): Promise<ReadinessResult> {
    const checks: Record<string, boolean> = {};
    await Promise.all(
      [...this.checks].map(async ([name, { check }]) => {
        let timer: NodeJS.Timeout | undefined;
        try {
          checks[name] = await Promise.race([
            Promise.resolve(check()),
            new Promise<boolean>((resolve) => {
              timer = setTimeout(() => resolve(false), CHECK_TIMEOUT_MS);
              timer.unref();
            }),
          ]);
        } catch {
          checks[name] = false;
        } finally {
          clearTimeout(timer);
        }
      }),
    );
    const gating = [...this.checks].filter(([, c]) => c.gates).map(([name]) => name);
    return { ready: gating.every((name) => checks[name]), checks, gating };
  }

  /**
   * `service_ready` (what `/readyz` answers) and `dependency_up{dependency}` (every check, gating or not), read
   * when scraped: an alert on Redis or NATS being away reads these, since readiness no longer shows them.
   */
  registerMetrics(registry: Registry): void {
    let last: Promise<ReadinessResult> | undefined;
    // One evaluation per scrape for both gauges.
    const read = () => (last ??= this.evaluate().finally(() => setTimeout(() => (last = undefined), 0)));
    const registers = [registry];
    new Gauge({
      name: 'service_ready',
      help: 'Whether the service answers /readyz with 200 (1) or 503 (0)',
      registers,
      async collect() {
        this.set((await read()).ready ? 1 : 0);
      },
    });
    new Gauge({
      name: 'dependency_up',
      help: 'Whether a dependency answers (1) or not (0); gating="true" where readiness depends on it',
      labelNames: ['dependency', 'gating'],
      registers,
      async collect() {
        const result = await read();
        this.reset();
        for (const [name, up] of Object.entries(result.checks))
          this.set({ dependency: name, gating: String(result.gating.includes(name)) }, up ? 1 : 0);
      },
    });
  }
}
