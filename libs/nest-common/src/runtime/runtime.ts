import type { DynamicModule } from '@nestjs/common';
import type { Logger } from 'pino';
import type { EventBus } from '../bus/bus.port';
import type { EphemeralStore, PubSub } from '../pubsub/pubsub.port';

/** Keys for session tokens. Only identity gets the private key. */
export interface AuthKeys {
  /** PEM, SPKI — every service verifies tokens with it. */
  publicKeyPem: string;
  /** PEM, PKCS#8 — present only in the process that runs identity. */
  privateKeyPem?: string;
}

/**
 * What the launcher hands every service module: the adapters it chose and the shared settings.
 * Services never construct adapters themselves (wiring apart from logic).
 */
export interface PlatformRuntime {
  mode: 'standalone' | 'cluster';
  /** postgres:// URL of the database; each service uses its own schema inside it. */
  databaseUrl: string;
  bus: EventBus;
  pubsub: PubSub;
  store: EphemeralStore;
  keys: AuthKeys;
  logger: Logger;
  /** Demo accounts and shortcuts (quick-login) are enabled. */
  demo: boolean;
  /** Public origin of the site, e.g. http://localhost:3000 — used for redirects and the Origin check. */
  publicUrl: string;
  /** The environment, for per-service config sections. */
  env: NodeJS.ProcessEnv;
}

/** `exact`: the path itself only. `tree`: the path and everything below it (`/x` and `/x/...`). */
export type RouteMatch = 'exact' | 'tree';

/** Which body-size limit the gateway applies: the default (JSON) one or the image-upload one. */
export type BodyLimitKind = 'default' | 'upload';

/** A public path the gateway sends to a service. Declared by the service, so the route table needs no edit. */
export interface ServiceRoute {
  readonly path: string;
  readonly match: RouteMatch;
  readonly bodyLimit: BodyLimitKind;
  /** A concrete path this entry must route, used by the tests. */
  readonly sample: string;
}

/** One entry of a service's `routes`: `serviceRoute('/api/posts', 'tree', '/api/posts/public/x')`. */
export function serviceRoute(
  path: string,
  match: RouteMatch,
  sample: string,
  bodyLimit: BodyLimitKind = 'default',
): ServiceRoute {
  return { path, match, bodyLimit, sample };
}

/** One entry of the launcher's target registry. */
export interface ServiceDefinition {
  /** Lower-case letters and digits: it names the target, the Helm entry, UPSTREAM_<NAME> and the `<name>.>` events. */
  name: string;
  /** Services that must be ready before this one starts. */
  dependsOn: readonly string[];
  /** Default loopback port in `--target=all`. */
  defaultPort: number;
  /** The public paths the gateway sends here; first match wins across the registry, in its order. */
  routes: readonly ServiceRoute[];
  /** Builds the service's root module for this runtime. */
  rootModule(runtime: PlatformRuntime): DynamicModule;
  /**
   * Runs before the app listens, for what must be in place before routes are served (e.g. Fastify plugins
   * such as multipart parsing). Optional.
   */
  configureApp?(app: import('@nestjs/platform-fastify').NestFastifyApplication, runtime: PlatformRuntime): Promise<void>;
  /** Runs once after the app listens (e.g. demo seeding). Optional. */
  afterStart?(app: import('@nestjs/common').INestApplication, runtime: PlatformRuntime): Promise<void>;
}

export const PLATFORM_RUNTIME = Symbol('PLATFORM_RUNTIME');
