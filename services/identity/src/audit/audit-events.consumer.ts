import { Controller, Inject } from '@nestjs/common';
import { Ctx, EventPattern, Payload } from '@nestjs/microservices';
import { PeopleDataSubjects, subjectService, type AuditRecordedEvent } from '@district/contracts';
import {
  BusContext,
  canonicalUuid,
  PLATFORM_LOGGER,
  PLATFORM_RUNTIME,
  type Logger,
  type PlatformRuntime,
} from '@district/nest-common';
import { AuditLogRepository } from './audit-log.repository';

/** One durable for every service's audit events (ADR 0036). */
export const AUDIT_CONSUMER = 'identity-audit';

/**
 * The administrative actions of every service that declares `peopleData.audit` in the registry (comment
 * moderation, chatroom changes, grade deletions…), published in the transaction that made them and recorded here
 * once (the inbox entry commits with the row; the event id is the row's id, so even a replay past the inbox cannot
 * add it twice). Whose events count is the registry's word, handed over by the launcher, never the payload's: the
 * subject's first token must be a participant with `audit`, and the event's `service` must be that same name;
 * anything else is logged and dropped.
 */
@Controller()
export class AuditEventsConsumer {
  private readonly auditing: ReadonlySet<string>;

  constructor(
    @Inject(AuditLogRepository) private readonly log: AuditLogRepository,
    @Inject(PLATFORM_RUNTIME) runtime: PlatformRuntime,
    @Inject(PLATFORM_LOGGER) private readonly logger: Logger,
  ) {
    this.auditing = new Set(runtime.peopleData.filter((p) => p.audit).map((p) => p.service));
  }

  @EventPattern<string>(PeopleDataSubjects.auditRecordedAny, { durable: AUDIT_CONSUMER })
  async recorded(@Payload() event: AuditRecordedEvent, @Ctx() ctx: BusContext): Promise<void> {
    const { manager, message, subject } = ctx;
    const service = subjectService(subject);
    if (!this.auditing.has(service) || event.service !== service) {
      // Acknowledged: no redelivery makes it a participant's; the log says who sent what.
      this.logger.error(
        { subject, claimed: event.service, messageId: message?.id },
        'audit event from a service the registry does not list as auditing, or naming another; dropped',
      );
      return;
    }
    // The outbox row's id (a UUID) is the entry's; an event from elsewhere without one gets a fresh id.
    const id = canonicalUuid(message?.id ?? '') ?? undefined;
    await this.log.append(manager, service, event.record, id);
  }
}
