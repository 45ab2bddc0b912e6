import { Controller, Inject } from '@nestjs/common';
import { Ctx, EventPattern, Payload } from '@nestjs/microservices';
import { Subjects, type AuditRecordedEvent } from '@district/contracts';
import { canonicalUuid, type BusContext } from '@district/nest-common';
import { AuditLogRepository } from './audit-log.repository';

export const AUDIT_CONSUMERS = {
  content: 'identity-audit-content',
  chat: 'identity-audit-chat',
  assessment: 'identity-audit-assessment',
} as const;

/**
 * Other services' administrative actions (comment moderation, chatroom changes, grade deletions), published in
 * the transaction that made them and recorded here once (the inbox entry commits with the row; the event id is
 * the row's id, so even a replay past the inbox cannot add it twice).
 */
@Controller()
export class AuditEventsConsumer {
  constructor(@Inject(AuditLogRepository) private readonly log: AuditLogRepository) {}

  @EventPattern(Subjects.contentAuditRecorded, { durable: AUDIT_CONSUMERS.content })
  async content(@Payload() event: AuditRecordedEvent, @Ctx() ctx: BusContext): Promise<void> {
    await this.record('content', event, ctx);
  }

  @EventPattern(Subjects.chatAuditRecorded, { durable: AUDIT_CONSUMERS.chat })
  async chat(@Payload() event: AuditRecordedEvent, @Ctx() ctx: BusContext): Promise<void> {
    await this.record('chat', event, ctx);
  }

  @EventPattern(Subjects.assessmentAuditRecorded, { durable: AUDIT_CONSUMERS.assessment })
  async assessment(@Payload() event: AuditRecordedEvent, @Ctx() ctx: BusContext): Promise<void> {
    await this.record('assessment', event, ctx);
  }

  /** The subject names the service: a payload claiming another is recorded under the subject's. */
  private async record(
    service: keyof typeof AUDIT_CONSUMERS,
    { record }: AuditRecordedEvent,
    { manager, message }: BusContext,
  ): Promise<void> {
    // The outbox row's id (a UUID) is the entry's; an event from elsewhere without one gets a fresh id.
    const id = canonicalUuid(message?.id ?? '') ?? undefined;
    await this.log.append(manager, service, record, id);
  }
}
