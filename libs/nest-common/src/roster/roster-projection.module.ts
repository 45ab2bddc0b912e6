import { Controller, Inject, type Provider, type Type } from '@nestjs/common';
import { Ctx, EventPattern, Payload } from '@nestjs/microservices';
import { DataSource, type EntityManager } from 'typeorm';
import {
  Subjects,
  type RosterClassChangedEvent,
  type RosterSchoolChangedEvent,
  type UserDeletedEvent,
} from '@district/contracts';
import { BusContext } from '../bus/transport/bus-context';
import { RosterProjectionRepository } from './roster-projection.repository';
import { RosterScope } from './roster-scope';

/** The durables of a service's roster projection (inbox and NATS consumer names). */
export const rosterDurables = (service: string) => ({
  classes: `${service}-roster-class`,
  schools: `${service}-roster-school`,
  deleted: `${service}-roster-user-deleted`,
});

/**
 * What a service does when a class's snapshot is newer than the one it held (chat follows a class chatroom's
 * roster): registered with `RosterChanges.onClass`, run in the same inbox transaction after the projection changed.
 */
export type ClassChangeListener = (manager: EntityManager, event: RosterClassChangedEvent) => Promise<void>;

/** The service's listeners for applied class snapshots. */
export class RosterChanges {
  private readonly listeners: ClassChangeListener[] = [];

  onClass(listener: ClassChangeListener): void {
    this.listeners.push(listener);
  }

  async classChanged(manager: EntityManager, event: RosterClassChangedEvent): Promise<void> {
    for (const listener of this.listeners) await listener(manager, event);
  }
}

/** The providers and the bus handlers the platform adds to a service that keeps the roster (ADR 0042). */
export function rosterProjection(service: string): { providers: Provider[]; controllers: Type<unknown>[] } {
  const durables = rosterDurables(service);

  @Controller()
  class RosterProjectionConsumer {
    constructor(
      @Inject(RosterProjectionRepository) private readonly projection: RosterProjectionRepository,
      @Inject(RosterChanges) private readonly changes: RosterChanges,
    ) {}

    @EventPattern<string>(Subjects.identityRosterClassChanged, { durable: durables.classes })
    async classChanged(
      @Payload() event: RosterClassChangedEvent,
      @Ctx() { manager }: BusContext,
    ): Promise<void> {
      if (await this.projection.applyClass(manager, event)) await this.changes.classChanged(manager, event);
    }

    @EventPattern<string>(Subjects.identityRosterSchoolChanged, { durable: durables.schools })
    async schoolChanged(
      @Payload() event: RosterSchoolChangedEvent,
      @Ctx() { manager }: BusContext,
    ): Promise<void> {
      await this.projection.applySchool(manager, event);
    }

    @EventPattern<string>(Subjects.identityUserDeleted, { durable: durables.deleted })
    async userDeleted(
      @Payload() { userId }: UserDeletedEvent,
      @Ctx() { manager }: BusContext,
    ): Promise<void> {
      await this.projection.forget(manager, userId.toLowerCase());
    }
  }
  Object.defineProperty(RosterProjectionConsumer, 'name', { value: 'RosterProjectionConsumer' });

  return {
    providers: [
      {
        provide: RosterProjectionRepository,
        inject: [DataSource],
        useFactory: (dataSource: DataSource) => new RosterProjectionRepository(dataSource),
      },
      {
        provide: RosterScope,
        inject: [RosterProjectionRepository],
        useFactory: (projection: RosterProjectionRepository) => new RosterScope(projection),
      },
      { provide: RosterChanges, useValue: new RosterChanges() },
    ],
    controllers: [RosterProjectionConsumer],
  };
}
