import YAML from 'yaml';
import {
  REPO_ROOT,
  resolveWorkloads,
  upstreamVariable,
  type ChartValues,
  type WorkloadSpec,
} from './chart-values';

/** Where the compose secrets volumes are mounted in the district image (deploy/Dockerfile makes them). */
const PRIVATE_DIR = '/var/lib/district/private';
const PUBLIC_DIR = '/var/lib/district/public';
const DATABASE_DIR = '/var/lib/district/database';
const IMAGE = '${DISTRICT_IMAGE:-district:local}';
const DATABASE = { user: 'district', name: 'district' };

type ComposeService = Record<string, unknown>;

const healthy = { condition: 'service_healthy' };

/** Kubernetes memory quantities (384Mi, 1Gi) in compose's units, which are binary too (384m, 1g). */
export function composeMemory(quantity: string | number): string {
  const match = /^(\d+)(Mi|Gi)?$/.exec(String(quantity));
  if (!match) throw new Error(`memory limit "${quantity}" cannot be expressed for compose; use Mi or Gi`);
  const [, amount, unit] = match;
  if (!unit) return `${amount}b`;
  return `${amount}${unit.startsWith('G') ? 'g' : 'm'}`;
}

function infrastructure(): Record<string, ComposeService> {
  return {
    keys: {
      image: IMAGE,
      build: { context: '.', dockerfile: 'deploy/Dockerfile' },
      command: ['node', 'deploy/init-secrets.mjs'],
      environment: { POSTGRES_HOST: 'postgres', POSTGRES_USER: DATABASE.user, POSTGRES_DB: DATABASE.name },
      volumes: [
        `auth-private:${PRIVATE_DIR}`,
        `auth-public:${PUBLIC_DIR}`,
        `database-credentials:${DATABASE_DIR}`,
      ],
      read_only: true,
      cap_drop: ['ALL'],
      security_opt: ['no-new-privileges:true'],
      restart: 'no',
    },
    postgres: {
      image: 'postgres:16',
      environment: {
        POSTGRES_USER: DATABASE.user,
        POSTGRES_DB: DATABASE.name,
        POSTGRES_PASSWORD_FILE: '/run/district/postgres-password',
      },
      volumes: ['postgres-data:/var/lib/postgresql/data', 'database-credentials:/run/district:ro'],
      depends_on: { keys: { condition: 'service_completed_successfully' } },
      healthcheck: {
        test: ['CMD', 'pg_isready', '-h', '127.0.0.1', '-U', DATABASE.user, '-d', DATABASE.name],
        interval: '5s',
        timeout: '3s',
        retries: 20,
        start_period: '10s',
      },
      restart: 'unless-stopped',
    },
    nats: {
      // The alpine variant has wget for the healthcheck; the default image is scratch-based.
      image: 'nats:2-alpine',
      command: ['-js', '-sd', '/data', '-m', '8222'],
      volumes: ['nats-data:/data'],
      healthcheck: {
        test: ['CMD', 'wget', '-q', '--spider', 'http://127.0.0.1:8222/healthz?js-enabled-only=true'],
        interval: '5s',
        timeout: '3s',
        retries: 20,
      },
      restart: 'unless-stopped',
    },
    redis: {
      image: 'redis:7',
      volumes: ['redis-data:/data'],
      healthcheck: { test: ['CMD', 'redis-cli', 'ping'], interval: '5s', timeout: '3s', retries: 20 },
      restart: 'unless-stopped',
    },
  };
}

function commonEnvironment(port: number): Record<string, string> {
  return {
    HOST: '0.0.0.0',
    PORT: String(port),
    PUBLIC_URL: '${PUBLIC_URL:-http://localhost:3000}',
    DEMO: '${DEMO:-false}',
    LOG_LEVEL: '${LOG_LEVEL:-info}',
    NATS_URL: 'nats://nats:4222',
    REDIS_URL: 'redis://redis:6379',
    // The gateway's forwarding headers are believed only from the compose network's private range.
    TRUSTED_PROXIES: '${TRUSTED_PROXIES:-172.16.0.0/12,10.0.0.0/8,192.168.0.0/16}',
    // /metrics beyond loopback needs a bearer token (16+ characters); unset, it answers 403.
    METRICS_TOKEN: '${METRICS_TOKEN:-}',
    AUTH_PUBLIC_KEY_FILE: `${PUBLIC_DIR}/auth-public.pem`,
  };
}

interface DistrictServiceParts {
  environment: Record<string, string>;
  volumes: string[];
  dependsOn: Record<string, { condition: string }>;
  ports?: string[];
  replicas: number;
}

function districtService(name: string, spec: WorkloadSpec, parts: DistrictServiceParts): ComposeService {
  const deploy: Record<string, unknown> = { replicas: parts.replicas };
  if (spec.resources.limits?.memory !== undefined) {
    deploy.resources = { limits: { memory: composeMemory(spec.resources.limits.memory) } };
  }
  return {
    image: IMAGE,
    build: { context: '.', dockerfile: 'deploy/Dockerfile' },
    command: [`--target=${name}`],
    environment: parts.environment,
    volumes: parts.volumes,
    ...(parts.ports ? { ports: parts.ports } : {}),
    depends_on: parts.dependsOn,
    healthcheck: {
      // /readyz, not /healthz: depends_on waits until the service has started and reaches its database (ADR 0043).
      test: ['CMD', 'node', '/app/deploy/healthcheck.mjs', '/readyz'],
      interval: '10s',
      timeout: '5s',
      retries: 6,
      start_period: '90s',
    },
    read_only: true,
    tmpfs: ['/tmp'],
    cap_drop: ['ALL'],
    security_opt: ['no-new-privileges:true'],
    stop_grace_period: `${spec.terminationGracePeriodSeconds}s`,
    restart: 'unless-stopped',
    deploy,
  };
}

/** The compose model for one host, built from the chart's values (the one list of services). */
export function buildCompose(values: ChartValues): Record<string, unknown> {
  const workloads = resolveWorkloads(values);
  const services: Record<string, ComposeService> = infrastructure();
  const infraReady = {
    keys: { condition: 'service_completed_successfully' },
    postgres: healthy,
    nats: healthy,
    redis: healthy,
  };

  const backEnds = workloads.filter((w) => !w.gateway);
  for (const { name, spec } of backEnds) {
    const environment: Record<string, string> = {
      ...commonEnvironment(values.port),
      DATABASE_URL_FILE: `${DATABASE_DIR}/database-url`,
    };
    const volumes = [`auth-public:${PUBLIC_DIR}:ro`, `database-credentials:${DATABASE_DIR}:ro`];
    if (spec.signsTokens) {
      environment.AUTH_PRIVATE_KEY_FILE = `${PRIVATE_DIR}/auth-private.pem`;
      environment.ADMIN_EMAIL = '${ADMIN_EMAIL:-admin@district.example}';
      environment.ADMIN_PASSWORD =
        '${ADMIN_PASSWORD:?set ADMIN_PASSWORD for the bootstrap admin (see docs/operator-guide.md)}';
      volumes.push(`auth-private:${PRIVATE_DIR}:ro`);
    }
    services[name] = districtService(name, spec, {
      environment,
      volumes,
      dependsOn: infraReady,
      replicas: spec.replicas,
    });
  }

  const gateway = workloads.find((w) => w.gateway);
  if (!gateway) throw new Error('resolveWorkloads returned no gateway');
  const gatewayEnvironment = commonEnvironment(values.port);
  gatewayEnvironment.GATEWAY_METRICS_TOKEN = '${METRICS_TOKEN:-}';
  for (const { name } of backEnds)
    gatewayEnvironment[upstreamVariable(name)] = `http://${name}:${values.port}`;
  services.gateway = districtService('gateway', gateway.spec, {
    environment: gatewayEnvironment,
    volumes: [`auth-public:${PUBLIC_DIR}:ro`],
    ports: [`\${GATEWAY_PORT:-3000}:${values.port}`],
    dependsOn: {
      keys: infraReady.keys,
      nats: healthy,
      redis: healthy,
      ...Object.fromEntries(backEnds.map((w) => [w.name, healthy])),
    },
    // One published host port admits one container, whatever the chart's replica count.
    replicas: 1,
  });

  return {
    services,
    volumes: {
      'postgres-data': {},
      'nats-data': {},
      'redis-data': {},
      'auth-private': {},
      'auth-public': {},
      'database-credentials': {},
    },
  };
}

const FLOW_KEYS = new Set(['command', 'test', 'cap_drop', 'security_opt', 'tmpfs']);

const HEADER = [
  ' Generated by deploy/src/generate-compose.ts from helm/district/values.yaml: do not edit by hand.',
  ' Regenerate with `npm run generate:compose -w deploy`; a test fails when this file is out of date.',
  ' Start: ADMIN_PASSWORD=... docker compose up -d --build   (docs/operator-guide.md)',
].join('\n');

/** docker-compose.yml as it is checked in: the model, a header, and the repository's Prettier style. */
export async function renderComposeFile(values: ChartValues): Promise<string> {
  // YAML 1.1 rules for quoting, because compose v1 reads YAML 1.1 (where a bare `no` is false).
  const document = new YAML.Document(buildCompose(values), { aliasDuplicateObjects: false, version: '1.1' });
  document.commentBefore = HEADER;
  // Short argument lists read better on one line.
  YAML.visit(document, {
    Pair(_, pair) {
      if (YAML.isScalar(pair.key) && FLOW_KEYS.has(String(pair.key.value)) && YAML.isSeq(pair.value)) {
        pair.value.flow = true;
        // PyYAML (compose v1) rejects `?` and `:` inside flow sequences unless the item is quoted.
        for (const item of pair.value.items) {
          if (YAML.isScalar(item) && !/^[\w./=-]+$/.test(String(item.value))) item.type = 'QUOTE_SINGLE';
        }
      }
    },
  });
  const text = document.toString({ lineWidth: 0, directives: false });
  // Loaded on use: Prettier needs dynamic import(), which a Jest VM without ESM support lacks.
  const prettier = await import('prettier');
  const options = (await prettier.resolveConfig(`${REPO_ROOT}/docker-compose.yml`)) ?? {};
  return prettier.format(text, { ...options, parser: 'yaml' });
}
