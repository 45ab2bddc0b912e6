import {
  Controller,
  Inject,
  Module,
  type DynamicModule,
  type OnModuleInit,
  type Provider,
  type Type,
} from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { Ctx, EventPattern, MessagePattern, Payload } from '@nestjs/microservices';
import {
  PeopleDataSubjects,
  Subjects,
  type UserDeletedEvent,
  type UserExportReply,
  type UserExportRequest,
} from '@district/contracts';
import { OutboxService } from '../bus/outbox';
import { BusContext } from '../bus/transport/bus-context';
import { SERVICE_NAME } from '../http/tokens';
import { AuditTrail } from './audit-trail';
import type { PeopleDataDeclaration, PeopleDataHolder } from './people-data';

/** The durable of a holder's erasure handler: the name each service has used since ADR 0021, kept (inbox, NATS). */
export const userDeletedDurable = (service: string) => `${service}-user-deleted`;

/**
 * The people's-data capability of one service (ADR 0036), imported once by the module that provides its holder
 * (its `users/` module). Global, so its domains inject `AuditTrail` without importing it. From the declaration the
 * registry entry carries (the same object):
 * - `audit`: provides `AuditTrail` (a service that did not declare it cannot inject it: the start fails);
 * - `holder`: answers `<service>.user.export.v1` with the holder's sections and runs its `forget` on
 *   `identity.user.deleted.v1` (durable `<service>-user-deleted`, exactly once through the inbox).
 */
@Module({})
export class PeopleDataModule {
  static forService(service: string, declaration: PeopleDataDeclaration): DynamicModule {
    const providers: Provider[] = [];
    if (declaration.audit)
      providers.push({
        provide: AuditTrail,
        inject: [SERVICE_NAME, OutboxService],
        useFactory: (name: string, outbox: OutboxService) => {
          if (name !== service)
            throw new Error(`PeopleDataModule.forService('${service}') is imported by service '${name}'`);
          return new AuditTrail(service, outbox);
        },
      });
    return {
      module: PeopleDataModule,
      global: true,
      controllers: declaration.holder ? [holderResponder(service, declaration.holder)] : [],
      providers,
      exports: providers.map((p) => (p as { provide: unknown }).provide as Type<unknown>),
    };
  }
}

/** The bus handlers of one service's holder, named for that service (decorators take their subjects here). */
function holderResponder(service: string, holderType: Type<PeopleDataHolder>): Type<unknown> {
  @Controller()
  class PeopleDataResponder implements OnModuleInit {
    private holder!: PeopleDataHolder;

    constructor(
      @Inject(ModuleRef) private readonly modules: ModuleRef,
      @Inject(SERVICE_NAME) private readonly name: string,
    ) {}

    /** The service's holder, wherever it provides it; none (or another service's name) stops the start. */
    onModuleInit(): void {
      if (this.name !== service)
        throw new Error(`PeopleDataModule.forService('${service}') is imported by service '${this.name}'`);
      try {
        this.holder = this.modules.get(holderType, { strict: false });
      } catch {
        throw new Error(
          `${service} declares peopleData.holder ${holderType.name}, but no module of ${service} provides it`,
        );
      }
    }

    @MessagePattern(PeopleDataSubjects.userExport(service))
    async export({ userId }: UserExportRequest): Promise<UserExportReply> {
      return { service, sections: await this.holder.exportSections(userId.toLowerCase()) };
    }

    @EventPattern<string>(Subjects.identityUserDeleted, { durable: userDeletedDurable(service) })
    async forget(@Payload() { userId }: UserDeletedEvent, @Ctx() { manager }: BusContext): Promise<void> {
      await this.holder.forget(manager, userId.toLowerCase());
    }
  }
  Object.defineProperty(PeopleDataResponder, 'name', { value: `${holderType.name}Responder` });
  return PeopleDataResponder;
}
