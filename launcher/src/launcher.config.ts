import path from 'node:path';
import { z } from 'zod';
import {
  ConfigError,
  envBoolean,
  envPort,
  isLoopbackListenHost,
  loadConfig,
  logLevelSchema,
} from '@district/nest-common';

const optionalUrl = (protocols: string[]) =>
  z
    .string()
    .optional()
    .transform((v) => (v === '' ? undefined : v))
    .refine(
      (v) => {
        if (v === undefined) return true;
        try {
          return protocols.includes(new URL(v).protocol.replace(':', ''));
        } catch {
          return false;
        }
      },
      `must be a URL starting with ${protocols.map((p) => `${p}://`).join(' or ')}`,
    );

export const launcherConfigSchema = z.object({
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
  DATABASE_URL: optionalUrl(['postgres', 'postgresql']),
  NATS_URL: optionalUrl(['nats', 'tls']),
  REDIS_URL: optionalUrl(['redis', 'rediss']),
  PUBLIC_URL: optionalUrl(['http', 'https']),
  DEMO: z.enum(['true', 'false', '1', '0', 'yes', 'no', ''], { error: 'must be true or false' }).optional(),
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
  SHUTDOWN_DRAIN_MS: z.coerce
    .number({ error: 'must be a number of milliseconds' })
    .int()
    .min(0)
    .max(60_000)
    .default(4000),
  /**
   * Rounds of each service's warm-up before it listens (a rehearsal of its busiest path, ADR 0019): unset, a
   * service's own default in a process that runs services without the gateway (a replica), none in `--target=all`;
   * 0 turns it off.
   */
  WARM_UP_ROUNDS: z.coerce
    .number({ error: 'must be a whole number of rounds' })
    .int()
    .min(0)
    .max(100_000)
    .optional(),
  /**
   * The accept queue of every listening socket this process opens (the gateway's, each service's). When a chat
   * replica dies, its clients all reconnect to the others at once: with Node's default of 511, the queue of a busy
   * survivor overflowed and the kernel dropped the handshakes, which the clients' TCP retried only after 1, 3 and 7 s
   * (ADR 0026). The kernel caps it at `net.core.somaxconn` (4096 on Linux since 5.4).
   */
  LISTEN_BACKLOG: z.coerce
    .number({ error: 'must be a whole number of connections' })
    .int()
    .min(1)
    .max(65_535)
    .default(4096),
});

export type LauncherConfig = z.infer<typeof launcherConfigSchema> & { demo: boolean; publicUrl: string };

export function loadLauncherConfig(env: NodeJS.ProcessEnv): LauncherConfig {
  // An empty variable counts as unset (compose files and shells often pass `VAR=`).
  const set = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const config = loadConfig('launcher', launcherConfigSchema, set);
  const standalone = config.TARGET.includes('all') && !config.NATS_URL;
  // Demo accounts are the standalone default and off in the cluster unless asked for.
  const demo =
    config.DEMO === undefined || config.DEMO === '' ? standalone : ['true', '1', 'yes'].includes(config.DEMO);
  if (demo && !isLoopbackListenHost(config.HOST) && !config.DEMO_ALLOW_REMOTE) {
    throw new ConfigError('launcher', [
      `DEMO: demo mode signs anyone in as a demo teacher or student without a password; it listens only on loopback ` +
        `unless DEMO_ALLOW_REMOTE=true (HOST is "${config.HOST}")`,
    ]);
  }
  const publicUrl = (config.PUBLIC_URL || `http://localhost:${config.PORT}`).replace(/\/$/, '');
  return { ...config, demo, publicUrl };
}
