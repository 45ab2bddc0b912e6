import { PeopleDataSubjects, type AuditRecord, type AuditRecordedEvent } from '@district/contracts';
import type { EntityManager } from 'typeorm';
import type { OutboxService } from '../bus/outbox';

/**
 * A service's administrative actions for identity's audit log (ADRs 0021, 0036): each record is enqueued in the
 * transaction that makes the change (the outbox), so it goes out exactly when the change commits, as
 * `<service>.audit.recorded.v1` naming the service. Given by the platform to a service whose registry entry
 * declares `peopleData.audit` (`PeopleDataModule.forService`).
 */
export class AuditTrail {
  readonly subject: string;

  constructor(
    readonly service: string,
    private readonly outbox: OutboxService,
  ) {
    this.subject = PeopleDataSubjects.auditRecorded(service);
  }

  /** Enqueues `record` in `tx`; answers the event's id (the audit log entry's id in identity). */
  record(tx: EntityManager, record: AuditRecord): Promise<string> {
    return this.outbox.enqueue(tx, this.subject, {
      service: this.service,
      record,
    } satisfies AuditRecordedEvent);
  }
}
