import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { REPO_ROOT } from '../src/chart-values';

const ENTRYPOINT = path.join(REPO_ROOT, 'deploy/docker-entrypoint.sh');
const PRINT_ENV = 'process.stdout.write(JSON.stringify({ argv: process.argv.slice(1), env: process.env }))';

describe('deploy/docker-entrypoint.sh', () => {
  let dir: string;
  const run = (args: string[], env: Record<string, string>, cwd = dir) =>
    spawnSync('/bin/sh', [ENTRYPOINT, ...args], {
      cwd,
      encoding: 'utf8',
      env: { PATH: path.dirname(process.execPath) + path.delimiter + (process.env.PATH ?? ''), ...env },
    });
  const printed = (stdout: string) =>
    JSON.parse(stdout) as { argv: string[]; env: Record<string, string | undefined> };

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'district-entrypoint-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('turns VAR_FILE into VAR (multi-line PEM intact) and drops the _FILE variable', () => {
    const pem = '-----BEGIN PUBLIC KEY-----\nMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE\n-----END PUBLIC KEY-----';
    fs.writeFileSync(path.join(dir, 'public.pem'), `${pem}\n`);
    fs.writeFileSync(path.join(dir, 'database-url'), 'postgres://district:pw@postgres:5432/district');
    const result = run(['node', '-e', PRINT_ENV], {
      AUTH_PUBLIC_KEY_FILE: path.join(dir, 'public.pem'),
      DATABASE_URL_FILE: path.join(dir, 'database-url'),
      NATS_URL: 'nats://nats:4222',
    });
    expect(result.stderr).toBe('');
    const { env } = printed(result.stdout);
    expect(env.AUTH_PUBLIC_KEY).toBe(pem);
    expect(env.DATABASE_URL).toBe('postgres://district:pw@postgres:5432/district');
    expect(env.NATS_URL).toBe('nats://nats:4222');
    expect(env.AUTH_PUBLIC_KEY_FILE).toBeUndefined();
    expect(env.DATABASE_URL_FILE).toBeUndefined();
  });

  it('refuses both VAR and VAR_FILE, and an unreadable file', () => {
    fs.writeFileSync(path.join(dir, 'url'), 'redis://redis:6379');
    const both = run(['node', '-e', ''], { REDIS_URL: 'redis://x', REDIS_URL_FILE: path.join(dir, 'url') });
    expect(both.status).toBe(64);
    expect(both.stderr).toContain('both REDIS_URL and REDIS_URL_FILE are set');
    const missing = run(['node', '-e', ''], { AUTH_PRIVATE_KEY_FILE: path.join(dir, 'absent.pem') });
    expect(missing.status).toBe(66);
    expect(missing.stderr).toContain('AUTH_PRIVATE_KEY_FILE');
  });

  it('runs the compiled launcher with plain node for --target=<name>: no loader, no TypeScript', () => {
    // A scratch copy of the layout the image has at /app (the runtime tree): launcher/dist/main.js, no tsconfig.
    fs.mkdirSync(path.join(dir, 'launcher/dist'), { recursive: true });
    fs.writeFileSync(
      path.join(dir, 'launcher/dist/main.js'),
      'process.stdout.write(JSON.stringify({ argv: process.argv.slice(1), execArgv: process.execArgv, env: process.env }));\n',
    );
    const result = run(['--target=chat', '--after-the-script'], {});
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    const out = JSON.parse(result.stdout) as { argv: string[]; execArgv: string[] };
    expect(out.argv).toEqual([
      path.join(dir, 'launcher/dist/main.js'),
      '--target=chat',
      '--after-the-script',
    ]);
    expect(out.execArgv).toEqual([]);
  });

  it('names nothing of the old run-time transpiler', () => {
    const script = fs.readFileSync(ENTRYPOINT, 'utf8');
    expect(script).toContain('exec node launcher/dist/main.js "$@"');
    expect(script).not.toMatch(/swc|\.ts\b|tsconfig/);
  });

  it('asks for a target when given nothing', () => {
    const result = run([], {});
    expect(result.status).toBe(64);
    expect(result.stderr).toContain('give --target=<name> or a command');
  });
});
