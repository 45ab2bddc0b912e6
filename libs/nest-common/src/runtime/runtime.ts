import type { DynamicModule } from '@nestjs/common';
import type { Logger } from 'pino';
import type { EventBus } from '../bus/bus.port';
import type { EphemeralStore, PubSub } from '../pubsub/pubsub.port';
import type { PeopleDataDeclaration, PeopleDataParticipant } from '../people-data/people-data';

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
  /**
   * The registry's services that hold people's data (`peopleDataParticipants(SERVICES)`, every registered one, not
   * only those in this process): whom identity asks for an export and whose audit events it records (ADR 0036).
   */
  peopleData: readonly PeopleDataParticipant[];
}

/**
 * `exact`: the path itself only. `tree`: the path and everything below it (`/x` and `/x/...`). `pattern`: the path
 * with each segment that is `*` standing for exactly one non-empty segment (a class's results.zip under identity's
 * /api/classes); the gateway tries pattern routes before the others, so one can carve a path out of another
 * service's tree.
 */
export type RouteMatch = 'exact' | 'tree' | 'pattern';

/** Which body-size limit the gateway applies: the default (JSON) one or the image-upload one. */
/** `roster`: a district's OneRoster zip (ADR 0042), `ROSTER_ZIP_MAX_BYTES` plus the multipart envelope. */
export type BodyLimitKind = 'default' | 'upload' | 'roster';

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

/**
 * What a page plug-in puts in a page's <head> (title, description, Open Graph). The gateway escapes every value,
 * makes the canonical path and the image absolute against the site's origin and keeps http(s) images only.
 */
export interface PageHead {
  title: string;
  description: string;
  /** The page's canonical path on the site, e.g. `/blog/los-colores`. */
  path: string;
  siteName: string;
  /** The preview image as stored (absolute, or relative to the site). */
  image?: string | null;
  keywords: readonly string[];
  publishedAt?: string;
  section?: string;
  tags: readonly string[];
}

/**
 * What a page's first screen shows, put into the page's first HTML so the app starts without fetching it (issue
 * #15): `data` is embedded as JSON (the gateway escapes it for a <script type="application/json">) and must be
 * what a signed-out visitor gets from the public API; `text` is the same content as plain text for crawlers that
 * run no script (the gateway escapes every field and keeps same-site links only).
 */
export interface PageInitialData {
  data: unknown;
  text: PageText;
}

export interface PageText {
  heading: string;
  paragraphs?: readonly string[];
  links?: ReadonlyArray<{ href: string; title: string; summary?: string }>;
}

export type PageLookup =
  /** `head` replaces index.html's own title and description; without it they stay. */
  | {
      kind: 'found';
      head?: PageHead;
      initial?: PageInitialData;
      /**
       * Same-site GETs (`/api/...`) the page's first screen makes at once that depend on what was looked up (a
       * lesson's comments): the gateway adds `<link rel="preload" as="fetch">` for them (ADR 0024). Public URLs
       * only: the page's bytes are the same for every visitor.
       */
      preload?: readonly string[];
    }
  /** The page names nothing public: the app says so and crawlers drop the URL (404 + noindex). */
  | { kind: 'missing' }
  /** The owner is down, slow or answered oddly: the plain app is served and loads the page itself. */
  | { kind: 'unavailable' };

/**
 * A GET the gateway makes for a plug-in, to a live replica of the service its route table sends `path` to.
 * Only a 200 answer's body is parsed (and its headers, lower-case, given); a path no service answers rejects.
 */
export type PageFetch = <T>(
  path: string,
  options?: {
    /** false lets the service answer from its caches (a public list); the default asks for a fresh answer. */
    fresh?: boolean;
  },
) => Promise<{ status: number; body?: T; headers?: Readonly<Record<string, string>> }>;

/**
 * Server-set head tags for some of the SPA's pages (link previews for crawlers that run no JavaScript), declared
 * by the service that owns those pages and run by the gateway, which itself knows no page.
 */
export interface PagePlugin {
  /** The key of a page this plug-in describes (a slug), or undefined to leave the path to the plain app. */
  match(pathname: string): string | undefined;
  lookup(key: string, fetch: PageFetch): Promise<PageLookup>;
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
  /** Head tags for the SPA pages this service owns (content: lesson pages); the launcher hands it to the gateway. */
  pages?: PagePlugin;
  /**
   * It holds people's data (ADR 0036): the same declaration its module passes to `PeopleDataModule.forService`;
   * the launcher hands the registry's to identity (audit log, right-of-access export). Absent: it holds none.
   */
  peopleData?: PeopleDataDeclaration;
  /** Builds the service's root module for this runtime. */
  rootModule(runtime: PlatformRuntime): DynamicModule;
  /**
   * Runs before the app listens, for what must be in place before routes are served (e.g. Fastify plugins
   * such as multipart parsing). Optional.
   */
  configureApp?(
    app: import('@nestjs/platform-fastify').NestFastifyApplication,
    runtime: PlatformRuntime,
  ): Promise<void>;
  /** Runs once after the app listens (e.g. demo seeding). Optional. */
  afterStart?(app: import('@nestjs/common').INestApplication, runtime: PlatformRuntime): Promise<void>;
  /**
   * A rehearsal of the service's busiest path, run before it listens when it is started as a replica of its own
   * (`startService`'s `warmUpRounds`), so a replica added during a burst takes its first requests with that code
   * already compiled by V8 instead of interpreted. It must leave nothing behind. Optional.
   */
  warmUp?: ServiceWarmUp;
}

/** What a service's warm-up is given: its application (initialised, not listening yet) and how much to do. */
export interface WarmUpContext {
  app: import('@nestjs/common').INestApplication;
  /**
   * A loopback address served by the application's own request handler while the warm-up runs (closed after it),
   * for requests over real sockets; the service's port is not open yet. Responses to it are neither logged nor
   * counted in the metrics.
   */
  url: string;
  rounds: number;
  /** \`Date.now()\` after which the warm-up must stop, however many rounds are left. */
  deadline: number;
}

export interface ServiceWarmUp {
  /** Rounds run by default (the launcher's WARM_UP_ROUNDS overrides it). */
  rounds: number;
  /** Answers the rounds done. */
  run(context: WarmUpContext): Promise<number>;
}

export const PLATFORM_RUNTIME = Symbol('PLATFORM_RUNTIME');

// What a definition's `peopleData` declares, and what the platform then gives the service (ADR 0036).
export * from '../people-data';
