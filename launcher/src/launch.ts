import { createGateway, gatewaySettingsFromEnv } from '@district/gateway';
import {
  createLogger,
  sessionCookieAuthenticator,
  startService,
  type RunningService,
  type ServiceDefinition,
} from '@district/nest-common';
import type { Logger } from 'pino';
import { loadLauncherConfig, servicePortFor, type LauncherConfig } from './launcher.config';
import { buildRuntime } from './runtime-factory';
import { GATEWAY_TARGET, SERVICES, resolveTargets, serviceNames } from './targets';

export interface Launched {
  config: LauncherConfig;
  /** The gateway's URL when this process runs the gateway. */
  url?: string;
  services: RunningService[];
  stop(): Promise<void>;
}

/**
 * Rounds of a service's warm-up before it listens: WARM_UP_ROUNDS when set; otherwise the service's own in a process
 * of service replicas, none beside the gateway (`--target=all`: one school's process, where a fast start matters more).
 */
export function warmUpRoundsFor(
  config: Pick<LauncherConfig, 'WARM_UP_ROUNDS'>,
  definition: Pick<ServiceDefinition, 'warmUp'>,
  withGateway: boolean,
): number {
  if (!definition.warmUp) return 0;
  return config.WARM_UP_ROUNDS ?? (withGateway ? 0 : definition.warmUp.rounds);
}

/**
 * Loki-style composition: `--target=all` runs the gateway and every service in this process (each service
 * its own Nest application on a loopback port); `--target=identity` (or a list) runs only those.
 * Services start in dependency order and stop in reverse.
 */
export async function launch(env: NodeJS.ProcessEnv, givenLogger?: Logger): Promise<Launched> {
  const config = loadLauncherConfig(env);
  const logger = givenLogger ?? createLogger('launcher', config.LOG_LEVEL);
  const { services, gateway } = resolveTargets(config.TARGET);
  if (!config.TARGET.includes('all') && services.length > 0) {
    const missing = (['DATABASE_URL', 'NATS_URL', 'REDIS_URL'] as const).filter((k) => !config[k]);
    if (missing.length) {
      throw new Error(
        `A service target (${services.map((s) => s.name).join(', ')}) runs beside other processes and needs ${missing.join(', ')}; ` +
          'use --target=all for the single-process mode.',
      );
    }
  }

  const built = await buildRuntime(config, logger, services.length > 0);
  const running: RunningService[] = [];
  let gatewayHandle: ReturnType<typeof createGateway> | undefined;
  let stopping: Promise<void> | undefined;
  const stop = () => (stopping ??= stopAll(true));
  const stopAll = async (drain: boolean) => {
    if (gatewayHandle)
      await gatewayHandle.close().catch((err: unknown) => logger.warn({ err }, 'gateway close failed'));
    else if (drain && running.length > 0 && config.SHUTDOWN_DRAIN_MS > 0) {
      // Reached through a gateway in another process: leave its rotation before closing (ADR 0022).
      for (const service of running) service.drain();
      await new Promise((resolve) => setTimeout(resolve, config.SHUTDOWN_DRAIN_MS));
    }
    for (const service of [...running].reverse()) {
      await service
        .close()
        .catch((err: unknown) => logger.warn({ err, service: service.name }, 'service close failed'));
    }
    await built.close();
  };

  try {
    const single = services.length === 1 && !gateway;
    for (const definition of services) {
      const port = single
        ? config.PORT
        : gateway
          ? 0
          : (servicePortFor(config, definition.name) ?? definition.defaultPort);
      const host = gateway ? '127.0.0.1' : config.HOST;
      const warmUpRounds = warmUpRoundsFor(config, definition, gateway);
      running.push(
        await startService(definition, built.runtime, {
          port,
          host,
          warmUpRounds,
          backlog: config.LISTEN_BACKLOG,
        }),
      );
    }
    let url: string | undefined;
    if (gateway) {
      const settings = gatewaySettingsFromEnv(env, serviceNames());
      const upstreams: Record<string, readonly string[]> = { ...settings.upstreams };
      for (const service of running) upstreams[service.name] = [service.url];
      // Services in this process are handed their requests directly (no loopback hop); the URL stays for the rest.
      const local = Object.fromEntries(running.map((service) => [service.name, service.handle]));
      gatewayHandle = createGateway({
        ...settings,
        // Every registered service, not only those in this process: the others are reached by UPSTREAM_<NAME>.
        services: SERVICES,
        upstreams,
        local,
        publicOrigin: config.publicUrl,
        staticDir: config.WEB_DIST,
        logger: logger.child({ service: GATEWAY_TARGET }),
        // What the services declare for the gateway to run: head tags of their pages (content's lessons)…
        pagePlugins: SERVICES.flatMap((s) => (s.pages ? [s.pages] : [])),
        // …and the session check of /ws upgrades, on the same token keys and shared session state as every guard.
        authenticate: sessionCookieAuthenticator(built.runtime.keys, built.runtime.store),
      });
      await gatewayHandle.listen(config.PORT, config.HOST, config.LISTEN_BACKLOG);
      url = config.publicUrl;
    }
    return { config, url, services: running, stop };
  } catch (error) {
    // A start that failed half-way has nothing in any rotation to leave.
    await (stopping ??= stopAll(false));
    throw error;
  }
}
