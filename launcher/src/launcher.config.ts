import path from 'node:path';
import { z } from 'zod';
import {
  ConfigError,
  PER_SERVICE,
  defineConfig,
  envBoolean,
  envInt,
  envOptionalInt,
  envOptionalUrl,
  envPort,
  isLoopbackListenHost,
  logLevelSchema,
  type ConfigValues,
} from '@district/nest-common';
import { serviceNames } from './targets';

/** A service's port when a process runs several services without the gateway: `IDENTITY_PORT`, … */
const SERVICE_PORT = `${PER_SERVICE}_PORT` as const;

/** The launcher's variables, declared once (ADR 0038); an empty value is unset, as everywhere. */
const launcherShape = {
  TARGET: z
    .string()
    .default('all')
    .transform((v) =>
      v
        .split(',')
        .map((t) => t.trim())
        .filter(Boolean),
    ),
  PORT: envPort(3000),
  HOST: z.string().min(1).default('127.0.0.1'),
  DATA_DIR: z.string().min(1).default('.data'),
  DATABASE_URL: envOptionalUrl(['postgres', 'postgresql']),
  NATS_URL: envOptionalUrl(['nats', 'tls']),
  REDIS_URL: envOptionalUrl(['redis', 'rediss']),
  PUBLIC_URL: envOptionalUrl(['http', 'https']),
  DEMO: z.enum(['true', 'false', '1', '0', 'yes', 'no'], { error: 'must be true or false' }).optional(),
  DEMO_PASSWORD: z.string().min(6, 'must be at least 6 characters').default('demo1234'),
  /** Demo mode beyond loopback lets anyone who reaches the site sign in without a password: only when asked for. */
  DEMO_ALLOW_REMOTE: envBoolean(false),
  WEB_DIST: z.string().default(path.resolve(__dirname, '../../web/dist')),
  LOG_LEVEL: logLevelSchema,
  /**
   * On SIGTERM, how long a service process keeps serving with its probes failing before it closes, so the gateway
   * (active check every 2 s) and Kubernetes take it out of rotation first (ADR 0022). Not used when the gateway
   * runs in the same process (standalone): it closes first.
   */
  SHUTDOWN_DRAIN_MS: envInt(4000, { min: 0, max: 60_000, unit: 'milliseconds' }),
  /**
   * Rounds of each service's warm-up before it listens (a rehearsal of its busiest path, ADR 0019): unset, a
   * service's own default in a process that runs services without the gateway (a replica), none in `--target=all`;
   * 0 turns it off.
   */
  WARM_UP_ROUNDS: envOptionalInt({ min: 0, max: 100_000, unit: 'rounds' }),
  /**
   * The accept queue of every listening socket this process opens (the gateway's, each service's). When a chat
   * replica dies, its clients all reconnect to the others at once: with Node's default of 511, the queue of a busy
   * survivor overflowed and the kernel dropped the handshakes, which the clients' TCP retried only after 1, 3 and 7 s
   * (ADR 0026). The kernel caps it at `net.core.somaxconn` (4096 on Linux since 5.4).
   */
  LISTEN_BACKLOG: envInt(4096, { min: 1, max: 65_535, unit: 'connections' }),
  /** Several services in one process without the gateway: each on its own port (default: its `defaultPort`). */
  [SERVICE_PORT]: envOptionalInt({ min: 1, max: 65_535 }),
};

export const launcherConfig = defineConfig('launcher', launcherShape, {
  build: launcherSettings,
  unset: {
    DATABASE_URL: 'embedded',
    NATS_URL: 'in-process bus',
    REDIS_URL: 'in-memory',
    PUBLIC_URL: '`http://localhost:$PORT`',
    DEMO: 'on in standalone, off otherwise',
    WEB_DIST: 'the built web app (`web/dist`)',
    WARM_UP_ROUNDS: "each service's own in a replica, none in `--target=all`",
    [SERVICE_PORT]: "the service's `defaultPort` (4101, 4102, …)",
  },
});

export type LauncherConfig = ConfigValues<typeof launcherShape> & { demo: boolean; publicUrl: string };

export function loadLauncherConfig(env: NodeJS.ProcessEnv): LauncherConfig {
  return launcherConfig.load(env, { services: serviceNames() });
}

function launcherSettings(config: ConfigValues<typeof launcherShape>): LauncherConfig {
  const standalone = config.TARGET.includes('all') && !config.NATS_URL;
  // Demo accounts are the standalone default and off in the cluster unless asked for.
  const demo = config.DEMO === undefined ? standalone : ['true', '1', 'yes'].includes(config.DEMO);
  if (demo && !isLoopbackListenHost(config.HOST) && !config.DEMO_ALLOW_REMOTE) {
    throw new ConfigError('launcher', [
      `DEMO: demo mode signs anyone in as a demo teacher or student without a password; it listens only on loopback ` +
        `unless DEMO_ALLOW_REMOTE=true (HOST is "${config.HOST}")`,
    ]);
  }
  const publicUrl = (config.PUBLIC_URL || `http://localhost:${config.PORT}`).replace(/\/$/, '');
  return { ...config, demo, publicUrl };
}

/** The port of one service when a process runs several without the gateway (`<SERVICE>_PORT`). */
export function servicePortFor(config: LauncherConfig, service: string): number | undefined {
  return config[SERVICE_PORT][service];
}
