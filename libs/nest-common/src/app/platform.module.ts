import {
  Global,
  Inject,
  Injectable,
  Module,
  type DynamicModule,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
  type Type,
} from '@nestjs/common';
import { APP_FILTER, APP_GUARD } from '@nestjs/core';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataSource, type DataSourceOptions } from 'typeorm';
import type { Logger } from 'pino';
import { AuthGuard } from '../auth/auth.guard';
import { SessionStateStore } from '../auth/session-state';
import { TokenService } from '../auth/token.service';
import { EVENT_BUS } from '../bus/bus.port';
import {
  BusTransport,
  createMessagingMigrations,
  InboxService,
  OutboxRelay,
  outboxBacklog,
  OutboxService,
  messagingEntities,
} from '../bus';
import {
  dataSourceOptions,
  ensureSchema,
  openWithMigrations,
  type ServiceDatabaseOptions,
} from '../database/database';
import { HealthController } from '../health/health.controller';
import { MessagingMetrics } from '../health/messaging-metrics';
import { ServiceMetrics } from '../health/metrics';
import { DatabaseProbe } from '../health/database-probe';
import { Readiness } from '../health/readiness';
import { ErrorFilter } from '../http/error.filter';
import { OpenApiController } from '../http/openapi';
import { RateLimiter } from '../http/rate-limit';
import { PLATFORM_LOGGER, SERVICE_NAME } from '../http/tokens';
import { EPHEMERAL_STORE, PUBSUB } from '../pubsub/pubsub.port';
import { PLATFORM_RUNTIME, type PlatformRuntime } from '../runtime/runtime';
import { createRosterProjectionMigration, rosterProjection } from '../roster';

export interface PlatformOptions {
  /** The service name: also its schema, bus prefix and durable-consumer prefix. */
  name: string;
  runtime: PlatformRuntime;
  entities: ServiceDatabaseOptions['entities'];
  migrations: ServiceDatabaseOptions['migrations'];
  /** Overrides the schema (tests use a throwaway one). */
  schema?: string;
  /**
   * It keeps the district's roster (ADR 0042): the platform adds the projection's tables, its bus handlers and
   * `RosterScope` (who acts on whom), `RosterChanges` (listeners for class changes).
   */
  roster?: boolean;
  /**
   * What the service cannot serve without besides its database, so its readiness fails while it is away: chat's
   * `['store']` (its live rooms are Redis). Every other dependency is watched, not gating (ADR 0043).
   */
  readyWith?: Array<'bus' | 'store'>;
}

/**
 * Everything a service gets from the platform, as one global module: the database (its own schema,
 * migrations at start), the ports chosen by the launcher, the auth guard and error filter on every route,
 * health, readiness and metrics, the outbox relay (which hears every commit that enqueued events), and the
 * bus transport that runs the service's `@EventPattern`/`@MessagePattern` handlers (`startBusHandlers`).
 */
@Global()
@Module({})
export class PlatformModule {
  static forService(options: PlatformOptions): DynamicModule {
    const { runtime } = options;
    const schema = options.schema ?? options.name;
    const logger = runtime.logger.child({ service: options.name });
    const roster = options.roster ? rosterProjection(options.name) : { providers: [], controllers: [] };
    return {
      module: PlatformModule,
      imports: [
        TypeOrmModule.forRootAsync({
          useFactory: async () => {
            await ensureSchema(runtime.databaseUrl, schema);
            return dataSourceOptions({
              url: runtime.databaseUrl,
              schema,
              entities: [
                ...(options.entities as unknown[]),
                ...messagingEntities,
              ] as ServiceDatabaseOptions['entities'],
              // Every service gets the outbox and inbox tables; its own migrations follow.
              migrations: [
                ...createMessagingMigrations(schema),
                ...(options.roster ? [createRosterProjectionMigration(schema)] : []),
                ...(options.migrations as unknown[]),
              ] as ServiceDatabaseOptions['migrations'],
            });
          },
          // Migrations run once across replicas starting together (an advisory lock per schema).
          dataSourceFactory: (dataSourceOpts) =>
            openWithMigrations(dataSourceOpts as DataSourceOptions, schema),
        }),
      ],
      controllers: [HealthController, OpenApiController, ...roster.controllers],
      providers: [
        { provide: PLATFORM_RUNTIME, useValue: runtime },
        { provide: SERVICE_NAME, useValue: options.name },
        { provide: PLATFORM_LOGGER, useValue: logger },
        { provide: EVENT_BUS, useValue: runtime.bus },
        { provide: PUBSUB, useValue: runtime.pubsub },
        { provide: EPHEMERAL_STORE, useValue: runtime.store },
        { provide: TokenService, useValue: new TokenService(runtime.keys) },
        { provide: SessionStateStore, useValue: new SessionStateStore(runtime.store) },
        { provide: ServiceMetrics, useValue: new ServiceMetrics(options.name, runtime.mode === 'cluster') },
        {
          provide: MessagingMetrics,
          inject: [ServiceMetrics, DataSource],
          useFactory: (metrics: ServiceMetrics, dataSource: DataSource) =>
            new MessagingMetrics(metrics.registry, {
              outboxBacklog: () => outboxBacklog(dataSource, schema),
              consumerLag: runtime.bus.consumerLag ? () => runtime.bus.consumerLag!() : undefined,
            }),
        },
        {
          provide: DatabaseProbe,
          useFactory: () => new DatabaseProbe({ connectionString: runtime.databaseUrl }),
        },
        {
          // Readiness is what the service serves in degraded mode (ADR 0043): the database gates every service;
          // the bus and the store gate only where readyWith says, and are watched everywhere.
          provide: Readiness,
          inject: [DatabaseProbe],
          useFactory: (database: DatabaseProbe) => {
            const readiness = new Readiness();
            const gates = new Set(options.readyWith ?? []);
            readiness.add('database', () => database.check());
            readiness.add('bus', () => runtime.bus.isReady(), { gates: gates.has('bus') });
            readiness.add('store', () => runtime.store.isReady(), { gates: gates.has('store') });
            return readiness;
          },
        },
        { provide: OutboxService, useValue: new OutboxService() },
        {
          provide: InboxService,
          inject: [DataSource],
          useFactory: (dataSource: DataSource) => new InboxService(dataSource),
        },
        {
          provide: OutboxRelay,
          inject: [DataSource, MessagingMetrics],
          useFactory: (dataSource: DataSource, metrics: MessagingMetrics) => {
            // Events go out as soon as their transaction commits (the relay hears outbox_enqueue's notification,
            // ADR 0037); the poll is only the safety net.
            return new OutboxRelay({
              dataSource,
              bus: runtime.bus,
              logger,
              schema,
              pollIntervalMs: 1000,
              metrics,
            });
          },
        },
        {
          provide: BusTransport,
          inject: [InboxService, MessagingMetrics],
          useFactory: (inbox: InboxService, metrics: MessagingMetrics) =>
            new BusTransport({ bus: runtime.bus, inbox, logger, service: options.name, metrics }),
        },
        RateLimiter,
        { provide: APP_GUARD, useClass: AuthGuard },
        { provide: APP_FILTER, useClass: ErrorFilter },
        PlatformLifecycle,
        ...roster.providers,
      ],
      exports: [
        ...roster.providers.map((p) => (p as { provide: unknown }).provide as Type<unknown>),
        PLATFORM_RUNTIME,
        SERVICE_NAME,
        PLATFORM_LOGGER,
        EVENT_BUS,
        PUBSUB,
        EPHEMERAL_STORE,
        TokenService,
        SessionStateStore,
        ServiceMetrics,
        MessagingMetrics,
        Readiness,
        OutboxService,
        InboxService,
        OutboxRelay,
        BusTransport,
        RateLimiter,
      ],
    };
  }
}

/** Starts the outbox relay once the app is up and stops it before the database closes. */
@Injectable()
class PlatformLifecycle implements OnApplicationBootstrap, OnApplicationShutdown {
  constructor(
    @Inject(OutboxRelay) private readonly relay: OutboxRelay,
    @Inject(PLATFORM_LOGGER) private readonly logger: Logger,
  ) {}

  onApplicationBootstrap(): void {
    this.relay.start();
    this.logger.debug('outbox relay started');
  }

  async onApplicationShutdown(): Promise<void> {
    await this.relay.stop();
  }
}
