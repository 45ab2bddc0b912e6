import { setTimeout as sleep } from 'node:timers/promises';
import { describeStatuses, failuresOtherThan503, isFailure, statusCounts, waitUntil } from './checks';
import { missingSeqs, type MixedLoad, type RequestRecord } from './load';
import { readyz, SERVICES, statusz, type FaultStack, type Member } from './stack';
import { checkWrites, eventCounts, type EventCounts, type WriteCheck } from './verify';

/**
 * The faults of issue #14 §3, each under the steady mixed load, each with its own checks. A scenario returns what
 * it measured; `summarise` adds the request, write, event and chat counts of its window.
 */

export interface Check {
  name: string;
  ok: boolean;
  detail: string;
}

export interface ScenarioResult {
  name: string;
  title: string;
  startedAt: string;
  seconds: number;
  requests: number;
  failed: number;
  failedByOp: Record<string, number>;
  /** status (0 = no answer) → count, for the failed and the 4xx answers. */
  statuses: Record<string, number>;
  sampleErrors: string[];
  maxLatencyMs: number;
  writes: WriteCheck;
  events: EventCounts;
  chat: {
    sent: number;
    confirmed: number;
    refused: number;
    unanswered: number;
    received: number;
    missing: number;
    duplicates: number;
    reconnects: number;
    maxReconnectMs: number;
  };
  measured: Record<string, number | string>;
  checks: Check[];
}

export interface ScenarioContext {
  stack: FaultStack;
  load: MixedLoad;
  short: boolean;
  log: (line: string) => void;
}

interface Window {
  start: number;
  records: number;
  comments: number;
  gradeKeys: number;
  roomSeq: number;
  reconnects: number[];
  sent: number[];
  confirmed: number[];
  refused: number[];
}

function openWindow(load: MixedLoad): Window {
  return {
    start: Date.now(),
    records: load.records.length,
    comments: load.comments.length,
    gradeKeys: load.grades.size,
    roomSeq: load.chatCheckedThrough ?? Math.max(0, ...load.peers.map((p) => p.lastSeq)),
    reconnects: load.peers.map((p) => p.reconnectMs.length),
    sent: load.peers.map((p) => p.sent),
    confirmed: load.peers.map((p) => p.confirmed),
    refused: load.peers.map((p) => p.refused),
  };
}

/** How long the gateway may take to put every replica back in rotation once each is ready (its check runs every 2 s). */
const ROTATION_TIMEOUT_MS = 30_000;

const allInRotation = (ctx: ScenarioContext) =>
  waitUntil(
    'the gateway to have every replica in rotation',
    () => ctx.stack.gatewayAllUp(),
    ROTATION_TIMEOUT_MS,
  );

/** Waits until every outbox row since `since` is published and delivered, or `ms` pass. */
async function settleEvents(ctx: ScenarioContext, since: Date, ms: number): Promise<EventCounts> {
  const deadline = Date.now() + ms;
  for (;;) {
    const counts = await eventCounts(ctx.stack.postgres.url, since);
    if (
      (counts.published === counts.written && counts.delivered === counts.expectedDeliveries) ||
      Date.now() > deadline
    )
      return counts;
    await sleep(500);
  }
}

async function summarise(
  ctx: ScenarioContext,
  name: string,
  title: string,
  w: Window,
  measured: Record<string, number | string>,
  checks: (r: Omit<ScenarioResult, 'checks'>) => Check[],
): Promise<ScenarioResult> {
  const { load } = ctx;
  const end = Date.now();
  // The chat is still sending: the highest message number seen anywhere now may be one that some clients are
  // being sent at this very moment. Check the window only up to the number seen now, after giving every client
  // time to receive it (a number read after the pause could be mid-fan-out and count as a gap); the next
  // window checks from here on, so no message falls between two windows.
  const roomSeq = Math.max(0, ...load.peers.map((p) => p.lastSeq));
  load.chatCheckedThrough = roomSeq;
  // Let chat catch-up and retried submissions finish before counting.
  await sleep(3000);
  const records = load.records.slice(w.records);
  const failed = records.filter(isFailure);
  const failedByOp: Record<string, number> = {};
  const statuses: Record<string, number> = {};
  for (const r of failed) failedByOp[r.op] = (failedByOp[r.op] ?? 0) + 1;
  for (const r of records.filter((r) => r.status === 0 || r.status >= 400))
    statuses[String(r.status)] = (statuses[String(r.status)] ?? 0) + 1;
  const sampleErrors = [...new Set(failed.map((r) => `${r.op} ${r.status} ${r.error ?? ''}`.trim()))].slice(
    0,
    8,
  );
  const gradeKeys = [...load.grades.keys()].slice(w.gradeKeys);
  const writes = await checkWrites(
    ctx.stack.postgres.url,
    load.comments.slice(w.comments),
    new Map(gradeKeys.map((k) => [k, load.grades.get(k) ?? null])),
  );
  const events = await settleEvents(ctx, new Date(w.start - 1000), ctx.short ? 45_000 : 90_000);
  const chat = {
    sent: load.peers.reduce((n, p, i) => n + p.sent - w.sent[i], 0),
    confirmed: load.peers.reduce((n, p, i) => n + p.confirmed - w.confirmed[i], 0),
    refused: load.peers.reduce((n, p, i) => n + p.refused - w.refused[i], 0),
    // Sent in the window, and 3 s after its end neither back nor refused: lost without the sender being told (a
    // message of an earlier window still held counts in its own window only).
    unanswered: load.peers.reduce(
      (n, p) => n + [...p.pending.values()].filter((m) => m.at >= w.start && m.at <= end).length,
      0,
    ),
    received: load.peers.reduce(
      (n, p) => n + [...p.seqs].filter((s) => s > w.roomSeq && s <= roomSeq).length,
      0,
    ),
    missing: load.peers.reduce((n, p) => n + missingSeqs(p, w.roomSeq + 1, roomSeq).length, 0),
    duplicates: load.peers.reduce((n, p) => n + p.duplicates, 0),
    reconnects: load.peers.reduce((n, p, i) => n + p.reconnectMs.length - w.reconnects[i], 0),
    maxReconnectMs: Math.max(0, ...load.peers.flatMap((p, i) => p.reconnectMs.slice(w.reconnects[i]))),
  };
  const partial = {
    name,
    title,
    startedAt: new Date(w.start).toISOString(),
    seconds: Math.round((end - w.start) / 100) / 10,
    requests: records.length,
    failed: failed.length,
    failedByOp,
    statuses,
    sampleErrors,
    maxLatencyMs: Math.max(0, ...records.map((r) => r.ms)),
    writes,
    events,
    chat,
    measured,
  };
  const common: Check[] = [
    {
      name: 'no acknowledged comment or grade lost',
      ok: writes.commentsMissing === 0 && writes.gradesMissing === 0,
      detail: `${writes.commentsMissing} comments, ${writes.gradesMissing} grades missing`,
    },
    {
      name: 'no grade stored twice',
      ok: writes.gradeDuplicates === 0,
      detail: `${writes.gradeDuplicates} duplicates`,
    },
    {
      name: 'every event published and delivered to each consumer',
      ok: events.published === events.written && events.delivered === events.expectedDeliveries,
      detail: `${events.published}/${events.written} published, ${events.delivered}/${events.expectedDeliveries} deliveries`,
    },
    {
      name: 'chat: no gap, no duplicate',
      ok: chat.missing === 0 && chat.duplicates === 0,
      detail: `${chat.missing} missing, ${chat.duplicates} duplicated of ${chat.received} received`,
    },
    {
      name: 'chat: every message sent came back to its sender or was refused with a notice',
      ok: chat.unanswered === 0,
      detail: `${chat.confirmed} came back, ${chat.refused} refused, ${chat.unanswered} unanswered of ${chat.sent} sent`,
    },
    {
      name: 'chat: every client joined at the end',
      ok: load.peers.every((p) => p.joined),
      detail: `${load.peers.filter((p) => p.joined).length}/${load.peers.length}`,
    },
  ];
  return { ...partial, checks: [...checks(partial), ...common] };
}

async function replacement(
  ctx: ScenarioContext,
  old: Member,
  timeoutMs: number,
): Promise<{ member: Member; readyMs: number }> {
  const started = Date.now();
  for (;;) {
    const member = ctx.stack.members().find((m) => m.port === old.port && m.pid !== old.pid);
    if (member && (await readyz(member.port))) return { member, readyMs: Date.now() - started };
    if (Date.now() - started > timeoutMs)
      throw new Error(`${old.id} was not replaced and ready within ${timeoutMs} ms`);
    await sleep(100);
  }
}

/** SIGTERM every replica in turn, each once its predecessor's replacement is ready (a rolling restart). */
export async function rollingRestart(ctx: ScenarioContext): Promise<ScenarioResult> {
  const w = openWindow(ctx.load);
  const restarts: number[] = [];
  const members = ctx.stack.members().filter((m) => m.service !== 'gateway');
  for (const member of members) {
    ctx.log(`  SIGTERM ${member.id} (pid ${member.pid})`);
    process.kill(member.pid, 'SIGTERM');
    const { readyMs } = await replacement(ctx, member, 60_000);
    restarts.push(readyMs);
    // The gateway's active check (every 2 s) brings it back into rotation.
    await allInRotation(ctx);
    await sleep(ctx.short ? 500 : 2000);
  }
  return summarise(
    ctx,
    'rolling-restart',
    'SIGTERM each service process in turn (a rolling restart)',
    w,
    { processesRestarted: members.length, slowestReplacementReadyMs: Math.max(...restarts) },
    (r) => [
      {
        name: 'failed requests ≤ 0.1 %',
        ok: r.failed <= r.requests * 0.001,
        detail: `${r.failed} of ${r.requests} (${((100 * r.failed) / Math.max(1, r.requests)).toFixed(3)} %)`,
      },
    ],
  );
}

/** SIGKILL one replica of each service; the gateway must stop sending to it within 2 s. */
export async function killReplicas(ctx: ScenarioContext): Promise<ScenarioResult> {
  const w = openWindow(ctx.load);
  let lateErrors = 0;
  let inFlightErrors = 0;
  let lastErrorAfterKillMs = 0;
  const markedDownMs: number[] = [];
  const services = SERVICES as readonly string[];
  for (const service of services) {
    const victim = ctx.stack.members().find((m) => m.service === service);
    if (!victim) throw new Error(`no replica of ${service}`);
    const from = ctx.load.records.length;
    const killedAt = Date.now();
    ctx.log(`  SIGKILL ${victim.id} (pid ${victim.pid})`);
    process.kill(victim.pid, 'SIGKILL');
    const downMs = await markedDown(ctx, service, victim.port, killedAt);
    markedDownMs.push(downMs);
    ctx.log(`    the gateway took it out of rotation after ${downMs} ms`);
    await replacement(ctx, victim, 60_000);
    await allInRotation(ctx);
    await sleep(ctx.short ? 500 : 2000);
    for (const r of ctx.load.records.slice(from).filter(isFailure)) {
      // An error of a request sent before the kill was in flight to it; one sent more than 2 s after is late.
      if (r.at <= killedAt) inFlightErrors += 1;
      else if (r.at > killedAt + 2000) lateErrors += 1;
      else inFlightErrors += 1;
      lastErrorAfterKillMs = Math.max(lastErrorAfterKillMs, r.at - killedAt);
    }
  }
  const slowest = Math.max(...markedDownMs);
  return summarise(
    ctx,
    'kill-replica',
    'SIGKILL one replica of each service',
    w,
    {
      lateErrors,
      errorsWithin2s: inFlightErrors,
      lastFailedRequestSentAfterKillMs: lastErrorAfterKillMs,
      outOfRotationMs: markedDownMs.join(' / '),
    },
    () => [
      {
        name: 'the gateway stops sending to a killed replica within 2 s',
        ok: slowest >= 0 && slowest <= 2000,
        detail: `${markedDownMs.join(', ')} ms (${services.join(', ')})`,
      },
      {
        name: 'no failed request sent more than 2 s after a kill',
        ok: lateErrors === 0,
        detail: `${lateErrors} late, ${inFlightErrors} within 2 s (last one sent ${lastErrorAfterKillMs} ms after its kill)`,
      },
    ],
  );
}

/**
 * ms from the kill until the gateway's `gateway_upstream_up` says the replica is out of rotation (a refused
 * connection marks it at once, the active check within 2 s); -1 when not within 10 s.
 */
async function markedDown(
  ctx: ScenarioContext,
  service: string,
  port: number,
  since: number,
): Promise<number> {
  const series = `gateway_upstream_up{service="${service}",replica="http://127.0.0.1:${port}"} 0`;
  while (Date.now() - since < 10_000) {
    try {
      const text = await (
        await fetch(`${ctx.stack.gateway}/metrics`, { signal: AbortSignal.timeout(1000) })
      ).text();
      if (text.includes(series)) return Date.now() - since;
    } catch {
      // the gateway is busy; ask again
    }
    await sleep(25);
  }
  return -1;
}

/** What a readiness watch saw: per service, whether /readyz failed, what /statusz showed down, the gateway's rotation. */
interface ReadinessSeen {
  /** Services a replica of which answered /readyz with anything but 200. */
  notReady: Set<string>;
  /** Per service, the dependencies a replica's /statusz showed down. */
  down: Map<string, Set<string>>;
  /** Per service, the fewest replicas the gateway's /readyz counted available. */
  fewestInRotation: Map<string, number>;
  /** Per service, when the gateway last counted fewer than all its replicas available (0: never). */
  lastOutOfRotation: Map<string, number>;
}

/**
 * Polls every replica's /readyz and /statusz and the gateway's /readyz every 200 ms until stopped: the probes
 * Kubernetes reads, and the rotation the gateway keeps by the same readiness (ADR 0043).
 */
function watchReadiness(ctx: ScenarioContext): { stop(): Promise<ReadinessSeen> } {
  const seen: ReadinessSeen = {
    notReady: new Set(),
    down: new Map(),
    fewestInRotation: new Map(),
    lastOutOfRotation: new Map(),
  };
  const replicas = ctx.stack.members().filter((m) => m.service !== 'gateway');
  let watching = true;
  const poll = async (m: Member) => {
    if (!(await readyz(m.port))) seen.notReady.add(m.service);
    const status = await statusz(m.port);
    for (const [dependency, up] of Object.entries(status?.checks ?? {}))
      if (!up)
        (seen.down.get(m.service) ?? seen.down.set(m.service, new Set()).get(m.service)!).add(dependency);
  };
  const rotation = async () => {
    const services = await ctx.stack.gatewayRotation();
    if (!services) return;
    for (const [service, { available, total }] of Object.entries(services)) {
      seen.fewestInRotation.set(service, Math.min(seen.fewestInRotation.get(service) ?? total, available));
      if (available < total) seen.lastOutOfRotation.set(service, Date.now());
    }
  };
  const loop = (async () => {
    while (watching) {
      await Promise.all([...replicas.map(poll), rotation()]);
      await sleep(200);
    }
  })();
  return {
    async stop() {
      watching = false;
      await loop;
      return seen;
    },
  };
}

/** The services whose replicas all stayed ready and in the gateway's rotation throughout a watch. */
function stayedReady(seen: ReadinessSeen, services: readonly string[]): string[] {
  return services.filter(
    (s) => !seen.notReady.has(s) && (seen.fewestInRotation.get(s) ?? 0) > 0 && !seen.lastOutOfRotation.has(s),
  );
}

/** Checks that every service but those in `unready` stayed ready and in rotation, and /statusz showed `dependencies` down. */
function readinessChecks(
  seen: ReadinessSeen,
  dependencies: string[],
  unready: readonly string[] = [],
): Check[] {
  const expectedReady = SERVICES.filter((s) => !unready.includes(s));
  const ready = stayedReady(seen, expectedReady);
  const notShowing = SERVICES.filter((s) => !dependencies.every((d) => seen.down.get(s)?.has(d)));
  return [
    {
      name: `${unready.length ? `every service but ${unready.join(', ')}` : 'every service'} stayed ready (/readyz 200) and in the gateway's rotation throughout`,
      ok: ready.length === expectedReady.length,
      detail: `stayed: ${ready.join(', ') || 'none'}; not: ${expectedReady.filter((s) => !ready.includes(s)).join(', ') || 'none'}`,
    },
    {
      name: `/statusz showed ${dependencies.join(' and ')} down on every service`,
      ok: notShowing.length === 0,
      detail: notShowing.length ? `not on ${notShowing.join(', ')}` : SERVICES.join(', '),
    },
  ];
}

/**
 * Stops `server` for `seconds` under the load and starts it again: the requests made while it was away, and when
 * it was back.
 */
async function outage(
  ctx: ScenarioContext,
  what: string,
  server: { stop(): void | Promise<void>; start(): Promise<void> },
  seconds: number,
): Promise<{ whileDown: RequestRecord[]; back: number }> {
  await sleep(2000);
  ctx.log(`  ${what} down for ${seconds} s`);
  await server.stop();
  const from = ctx.load.records.length;
  await sleep(seconds * 1000);
  const whileDown = ctx.load.records.slice(from);
  await server.start();
  return { whileDown, back: Date.now() };
}

/** NATS stopped for a while during writes: the outboxes hold the events; nothing lost once it returns. */
export async function natsDown(ctx: ScenarioContext): Promise<ScenarioResult> {
  const seconds = ctx.short ? 15 : 60;
  const w = openWindow(ctx.load);
  const watch = watchReadiness(ctx);
  const { whileDown } = await outage(ctx, 'NATS', ctx.stack.nats, seconds);
  const seen = await watch.stop();
  const writesWhileDown = whileDown.filter((r) => r.op.startsWith('write.')).length;
  const readyMs = await ctx.stack.allReady(60_000);
  ctx.log(`  NATS back; every replica ready after ${readyMs} ms`);
  await sleep(3000);
  return summarise(
    ctx,
    'nats-down',
    `NATS down for ${seconds} s during writes`,
    w,
    { natsDownSeconds: seconds, writesWhileDown, readyAfterReturnMs: readyMs },
    (r) => {
      const failedWrites = Object.entries(r.failedByOp).reduce(
        (n, [op, c]) => n + (op.startsWith('write.') ? c : 0),
        0,
      );
      return [
        {
          name: '0 failed writes',
          ok: failedWrites === 0,
          detail: `${failedWrites} of ${writesWhileDown} writes while down failed`,
        },
        { name: '0 failed requests', ok: r.failed === 0, detail: `${r.failed} of ${r.requests}` },
        ...readinessChecks(seen, ['bus']),
      ];
    },
  );
}

/**
 * Redis stopped (and NATS with it, `withNats`): every API but chat keeps answering and stays ready, in rotation at the
 * gateway as under Kubernetes' readiness probe; chat, which cannot run without Redis, goes unready, out of rotation,
 * and delivers again within 10 s of its return.
 */
async function redisAway(ctx: ScenarioContext, withNats: boolean): Promise<ScenarioResult> {
  const seconds = ctx.short ? 10 : 30;
  const w = openWindow(ctx.load);
  const { redis, nats } = ctx.stack;
  const servers = withNats
    ? {
        stop: async () => {
          redis.stop();
          await nats.stop();
        },
        start: async () => {
          await Promise.all([redis.start(), nats.start()]);
        },
      }
    : redis;
  const watch = watchReadiness(ctx);
  const { whileDown, back } = await outage(ctx, withNats ? 'Redis and NATS' : 'Redis', servers, seconds);
  const seqAtReturn = Math.max(0, ...ctx.load.peers.map((p) => p.lastSeq));
  // Chat recovered: a message sent after Redis returned has reached every client.
  let recoveredMs = -1;
  for (const deadline = back + 30_000; Date.now() < deadline;) {
    const candidates = ctx.load.peers.flatMap((p) =>
      [...p.arrivals].filter(([seq]) => seq > seqAtReturn).map(([seq]) => seq),
    );
    const everywhere = [...new Set(candidates)].filter((seq) => ctx.load.peers.every((p) => p.seqs.has(seq)));
    if (everywhere.length > 0) {
      const seq = Math.min(...everywhere);
      recoveredMs = Math.max(...ctx.load.peers.map((p) => p.arrivals.get(seq) ?? 0)) - back;
      break;
    }
    await sleep(100);
  }
  ctx.log(`  back; chat delivering to every client after ${recoveredMs} ms`);
  await ctx.stack.allReady(30_000);
  const seen = await watch.stop();
  // Chat back in the gateway's rotation: after the last moment it counted fewer than all of chat's replicas.
  const chatBackMs = (seen.lastOutOfRotation.get('chat') ?? 0) - back;
  await sleep(3000);
  const chatRead = (r: RequestRecord) => r.op === 'read.rooms';
  const readsDown = whileDown.filter((r) => r.op.startsWith('read.') && !chatRead(r));
  const chatReadsDown = whileDown.filter(chatRead);
  const writesDown = whileDown.filter((r) => r.op.startsWith('write.'));
  const readsFailed = readsDown.filter(isFailure).length;
  const chatReadsOtherwise = failuresOtherThan503(statusCounts(chatReadsDown));
  const writeStatuses = statusCounts(writesDown);
  const writesFailedOtherwise = failuresOtherThan503(writeStatuses);
  return summarise(
    ctx,
    withNats ? 'redis-nats-down' : 'redis-down',
    withNats ? `Redis and NATS down together for ${seconds} s` : `Redis down for ${seconds} s`,
    w,
    {
      [withNats ? 'downSeconds' : 'redisDownSeconds']: seconds,
      readsWhileDown: readsDown.length,
      readsFailedWhileDown: readsFailed,
      chatReadsWhileDown: chatReadsDown.length,
      chatReads503WhileDown: chatReadsDown.filter((r) => r.status === 503).length,
      writesWhileDown: writesDown.length,
      writesRefused503WhileDown: writesDown.filter((r) => r.status === 503).length,
      chatRecoveredMs: recoveredMs,
      chatBackInRotationMs: chatBackMs,
    },
    () => [
      {
        name: 'reads of every service but chat keep answering',
        ok: readsFailed === 0,
        detail: `${readsFailed} of ${readsDown.length} failed`,
      },
      {
        name: 'writes while Redis is away fail closed with 503 (session revocation cannot be checked), never 500, 502, 504 or no answer',
        // No answer at all is not failing closed: the client cannot tell it from a write that may have happened.
        ok: Object.keys(writesFailedOtherwise).length === 0,
        detail: `${writeStatuses['503'] ?? 0} × 503, ${writesDown.filter((r) => r.status >= 200 && r.status < 300).length} × 2xx, other failures: ${describeStatuses(writesFailedOtherwise)}`,
      },
      ...readinessChecks(seen, withNats ? ['store', 'bus'] : ['store'], ['chat']),
      {
        name: "chat went unready and out of the gateway's rotation; its reads meanwhile answer 503, never 500, 502, 504 or no answer",
        ok:
          seen.notReady.has('chat') &&
          seen.fewestInRotation.get('chat') === 0 &&
          Object.keys(chatReadsOtherwise).length === 0,
        detail: `unready: ${seen.notReady.has('chat')}, fewest in rotation: ${seen.fewestInRotation.get('chat')}; ${chatReadsDown.filter((r) => r.status === 503).length} × 503 of ${chatReadsDown.length} reads, other failures: ${describeStatuses(chatReadsOtherwise)}`,
      },
      {
        name: 'chat back in rotation and delivering within 10 s of Redis returning',
        ok: recoveredMs >= 0 && recoveredMs <= 10_000 && chatBackMs <= 10_000,
        detail: `in rotation after ${chatBackMs} ms, delivering after ${recoveredMs} ms`,
      },
    ],
  );
}

/** Redis stopped: see redisAway. */
export function redisDown(ctx: ScenarioContext): Promise<ScenarioResult> {
  return redisAway(ctx, false);
}

/** Redis and NATS stopped together: a service target whose Redis and NATS die under it stays ready (issue #37). */
export function redisAndNatsDown(ctx: ScenarioContext): Promise<ScenarioResult> {
  return redisAway(ctx, true);
}

/** PostgreSQL restarted: /readyz goes false then true, services recover on their own, nothing hangs. */
export async function postgresRestart(ctx: ScenarioContext): Promise<ScenarioResult> {
  const w = openWindow(ctx.load);
  const restartsBefore = ctx.stack.restartsLogged();
  const replicas = ctx.stack.members().filter((m) => m.service !== 'gateway');
  const seenNotReady = new Set<string>();
  let watching = true;
  const watcher = (async () => {
    while (watching) {
      await Promise.all(
        replicas.map(async (m) => (!(await readyz(m.port)) ? seenNotReady.add(m.service) : undefined)),
      );
      await sleep(200);
    }
  })();
  let readyMs: number;
  try {
    await sleep(2000);
    ctx.log('  PostgreSQL stopping');
    await ctx.stack.postgres.stop();
    await sleep(5000);
    await ctx.stack.postgres.start();
    readyMs = await ctx.stack.allReady(60_000);
  } finally {
    // A failed wait must not leave the watcher polling forever (it would keep the run alive).
    watching = false;
    await watcher;
  }
  ctx.log(`  PostgreSQL back; every replica ready after ${readyMs} ms`);
  await sleep(3000);
  const restartsAfter = ctx.stack.restartsLogged();
  return summarise(
    ctx,
    'postgres-restart',
    'PostgreSQL restarted (5 s down)',
    w,
    { readyAfterReturnMs: readyMs, servicesSeenNotReady: [...seenNotReady].sort().join(' ') },
    (r) => [
      {
        name: 'services recover without being restarted',
        ok: restartsAfter === restartsBefore,
        detail: `${restartsAfter - restartsBefore} restarts`,
      },
      {
        name: '/readyz went false during the outage for every service',
        ok: SERVICES.every((s) => seenNotReady.has(s)),
        detail: [...seenNotReady].join(', ') || 'none',
      },
      {
        name: 'no request hangs past the 30 s client timeout',
        ok: r.maxLatencyMs < 30_000,
        detail: `longest ${r.maxLatencyMs} ms`,
      },
      {
        // A 502 or 504 from the gateway, or no answer, is as much a failure to say "unavailable" as a 500.
        name: 'failures while the database is away are 503s, never 500, 502, 504 or no answer',
        ok: Object.keys(failuresOtherThan503(r.statuses)).length === 0,
        detail: `${r.statuses['503'] ?? 0} × 503; other failures: ${describeStatuses(failuresOtherThan503(r.statuses))}`,
      },
    ],
  );
}

export const SCENARIOS: Record<string, (ctx: ScenarioContext) => Promise<ScenarioResult>> = {
  'rolling-restart': rollingRestart,
  'kill-replica': killReplicas,
  'nats-down': natsDown,
  'redis-down': redisDown,
  'redis-nats-down': redisAndNatsDown,
  'postgres-restart': postgresRestart,
};
