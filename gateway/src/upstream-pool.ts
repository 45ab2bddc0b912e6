import http from 'node:http';
import https from 'node:https';
import { Pool } from 'undici';

/** Connection errors that mean "this replica did not get the request": safe to mark it down. */
const CONNECT_ERROR_CODES = new Set([
  'ECONNREFUSED',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
  'ENOTFOUND',
]);

export function isConnectError(err: unknown): boolean {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  return code !== undefined && CONNECT_ERROR_CODES.has(code);
}

export function isResetError(err: unknown): boolean {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  return code === 'ECONNRESET' || code === 'EPIPE';
}

/** The most of a /readyz answer read: `{"status":"ready","service":"<name>",…}` is far under it. */
const HEALTH_BODY_LIMIT = 1024;

/**
 * The service a /readyz answer names, or why it names none. A replica is routed to only when it names the pool's
 * own service: another service, or any other program, listening at the upstream's address (a mistyped
 * UPSTREAM_<NAME>, a port another process took) is kept out instead of answering that service's traffic.
 */
function healthAnswerService(body: string): string | undefined {
  try {
    const parsed: unknown = JSON.parse(body);
    const service = (parsed as { service?: unknown } | null)?.service;
    return typeof service === 'string' ? service : undefined;
  } catch {
    return undefined;
  }
}

export interface ReplicaStatus {
  url: string;
  up: boolean;
}

export class Replica {
  /** The keep-alive connections to this replica that proxied HTTP requests use (undici). */
  dispatcher: Pool | undefined;

  /** Last answer of the active health check; optimistic until the first check has run. */
  healthy = true;
  /** Set by a passive failure (a refused or reset connection); the replica is skipped until then. */
  downUntil = 0;
  /** Active checks in a row that got no answer in time (a busy replica, not yet a dead one). */
  slowChecks = 0;
  /** The availability last announced through `onStatusChange`, so each change is announced once. */
  reportedUp = true;
  /** Set while the replica's check answers but names another service (or none): why it is kept out. */
  mismatch: string | undefined;

  constructor(
    readonly url: string,
    readonly target: URL,
  ) {}

  isAvailable(now: number): boolean {
    return this.healthy && now >= this.downUntil;
  }
}

export interface UpstreamPoolOptions {
  /** How long a passively failed replica is skipped. */
  passiveDownMs?: number;
  /** Interval of the active readiness check; 0 turns it off. */
  healthCheckIntervalMs?: number;
  healthCheckTimeoutMs?: number;
  /**
   * Active checks in a row without an answer in time before the replica counts as down (default 3). A refused
   * or reset connection or a 5xx counts at once: a dead or draining process says so, while a replica busy with a
   * burst (a class connecting to chat at once) may answer its check late and still be serving.
   */
  healthCheckTimeoutsToDown?: number;
  /**
   * What the active check asks: `/readyz` by default, the same readiness Kubernetes' probe reads (ADR 0043), so a
   * service out of rotation here is out of its Service there, and the other way round.
   */
  healthCheckPath?: string;
  /** Upper bound of concurrent connections to one replica. */
  maxSocketsPerReplica?: number;
  /** How long a replica may stay silent (no answer yet, or no more of it) before the request fails. */
  requestTimeoutMs?: number;
  /** A change of a replica's availability; `reason` says why a replica that answers is kept out. */
  onStatusChange?: (replica: Replica, up: boolean, reason?: string) => void;
}

/**
 * The replicas of one service: round-robin choice among the live ones, each replica's pool of keep-alive
 * connections for proxied requests (undici), a keep-alive agent for WebSocket upgrades and health checks, and
 * the passive and active health checks.
 */
export class UpstreamPool {
  readonly replicas: readonly Replica[];
  readonly agent: http.Agent;
  private next = 0;
  private readonly passiveDownMs: number;
  private readonly healthCheckTimeoutMs: number;
  private readonly healthCheckTimeoutsToDown: number;
  private readonly healthCheckPath: string;
  private readonly onStatusChange?: (replica: Replica, up: boolean, reason?: string) => void;
  private timer: NodeJS.Timeout | undefined;
  private readonly inFlightChecks = new Set<http.ClientRequest>();
  private stopped = false;

  constructor(
    readonly service: string,
    urls: readonly string[],
    options: UpstreamPoolOptions = {},
  ) {
    this.replicas = urls.map((url) => {
      const target = new URL(url);
      if (target.protocol !== 'http:' && target.protocol !== 'https:') {
        throw new Error(`Upstream ${url} of ${service} must be an http:// or https:// URL`);
      }
      // Paths are forwarded unchanged, so a base path on the replica URL would be silently dropped.
      if (target.pathname !== '/' || target.search !== '' || target.username !== '') {
        throw new Error(`Upstream ${url} of ${service} must be a bare origin such as http://127.0.0.1:4101`);
      }
      return new Replica(url.replace(/\/+$/, ''), target);
    });
    const usesTls = this.replicas.some((r) => r.target.protocol === 'https:');
    const agentOptions: http.AgentOptions = {
      keepAlive: true,
      // LIFO reuses the most recently used sockets, so the spare ones after a burst idle out.
      scheduling: 'lifo',
      maxSockets: options.maxSocketsPerReplica ?? 256,
      maxFreeSockets: 64,
    };
    this.agent = usesTls ? new https.Agent(agentOptions) : new http.Agent(agentOptions);
    const timeout = options.requestTimeoutMs ?? 60_000;
    for (const replica of this.replicas) {
      replica.dispatcher = new Pool(replica.target.origin, {
        connections: options.maxSocketsPerReplica ?? 256,
        // Idle connections are kept as long as the replica's Keep-Alive hint allows (Node's 5 s by default).
        keepAliveTimeout: 30_000,
        headersTimeout: timeout,
        bodyTimeout: timeout,
      });
    }
    this.passiveDownMs = options.passiveDownMs ?? 3000;
    this.healthCheckTimeoutMs = options.healthCheckTimeoutMs ?? 1000;
    this.healthCheckTimeoutsToDown = Math.max(1, options.healthCheckTimeoutsToDown ?? 3);
    this.healthCheckPath = options.healthCheckPath ?? '/readyz';
    this.onStatusChange = options.onStatusChange;
    const interval = options.healthCheckIntervalMs ?? 2000;
    if (interval > 0 && this.replicas.length > 0) {
      this.checkAll();
      this.timer = setInterval(() => this.checkAll(), interval);
      this.timer.unref();
    }
  }

  /** The next live replica in round-robin order, skipping those in `exclude`; undefined when none is live. */
  pick(exclude?: ReadonlySet<Replica>): Replica | undefined {
    const count = this.replicas.length;
    const now = Date.now();
    for (let i = 0; i < count; i++) {
      const replica = this.replicas[(this.next + i) % count];
      if (replica.isAvailable(now) && !exclude?.has(replica)) {
        this.next = (this.next + i + 1) % count;
        return replica;
      }
    }
    return undefined;
  }

  markFailed(replica: Replica): void {
    replica.downUntil = Date.now() + this.passiveDownMs;
    this.report(replica);
  }

  private report(replica: Replica): void {
    const up = replica.isAvailable(Date.now());
    if (up === replica.reportedUp) return;
    replica.reportedUp = up;
    this.onStatusChange?.(replica, up, up ? undefined : replica.mismatch);
  }

  status(): ReplicaStatus[] {
    const now = Date.now();
    return this.replicas.map((r) => ({ url: r.url, up: r.isAvailable(now) }));
  }

  availableCount(): number {
    const now = Date.now();
    return this.replicas.filter((r) => r.isAvailable(now)).length;
  }

  /** Runs one round of active checks now; resolves when every replica has answered or timed out. */
  checkAll(): Promise<void> {
    return Promise.all(this.replicas.map((r) => this.check(r))).then(() => undefined);
  }

  private check(replica: Replica): Promise<void> {
    if (this.stopped) return Promise.resolve();
    return new Promise((resolve) => {
      let settled = false;
      /** `mismatch`: why an answer that came is not this service's (the reason reported when it goes down). */
      const settle = (up: boolean, timedOut = false, mismatch?: string) => {
        if (settled) return;
        settled = true;
        this.inFlightChecks.delete(req);
        replica.mismatch = mismatch;
        replica.slowChecks = timedOut ? replica.slowChecks + 1 : 0;
        replica.healthy = timedOut
          ? replica.slowChecks < this.healthCheckTimeoutsToDown && replica.healthy
          : up;
        // A passing active check clears a passive mark: the replica answers again.
        if (up) replica.downUntil = 0;
        this.report(replica);
        resolve();
      };
      const client = replica.target.protocol === 'https:' ? https : http;
      const req = client.request(
        new URL(this.healthCheckPath, replica.target),
        { method: 'GET', agent: this.agent, timeout: this.healthCheckTimeoutMs },
        (res) => {
          // 5xx (e.g. 503 while draining on shutdown) means "do not send traffic"; any other answer means alive,
          // once it names this pool's service.
          if ((res.statusCode ?? 500) >= 500) {
            res.resume();
            return settle(false);
          }
          let body = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => {
            body += chunk;
            if (body.length <= HEALTH_BODY_LIMIT) return;
            settle(
              false,
              false,
              `its ${this.healthCheckPath} answer is over ${HEALTH_BODY_LIMIT} bytes: not a service of ours`,
            );
            res.destroy();
          });
          res.on('error', () => settle(false));
          // Cut off before its end (by us above, or by the other side): not an answer.
          res.on('close', () => settle(false));
          res.on('end', () => {
            const named = healthAnswerService(body);
            if (named === this.service) return settle(true);
            settle(
              false,
              false,
              `its ${this.healthCheckPath} names ${named === undefined ? 'no service' : `"${named}"`}, not "${this.service}"`,
            );
          });
        },
      );
      this.inFlightChecks.add(req);
      req.on('timeout', () => {
        settle(false, true);
        req.destroy(new Error('health check timed out'));
      });
      req.on('error', () => settle(false));
      req.end();
    });
  }

  stopHealthChecks(): void {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    for (const req of this.inFlightChecks) req.destroy();
    this.inFlightChecks.clear();
  }

  /** Stops the checks and closes every upstream connection, idle or not. */
  close(): void {
    this.stopHealthChecks();
    this.agent.destroy();
    for (const replica of this.replicas) void replica.dispatcher?.destroy().catch(() => undefined);
  }
}
