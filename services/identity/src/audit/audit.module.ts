import { Module } from '@nestjs/common';
import { AuditEventsConsumer } from './audit-events.consumer';
import { AuditLogController } from './audit-log.controller';
import { AuditLogRepository } from './audit-log.repository';

/**
 * The audit log of administrative actions (ADRs 0021, 0036): identity's own actions are appended by the domain
 * that makes them (users), in their transactions; the other services' arrive as events.
 */
@Module({
  // AuditEventsConsumer records the other services' audit events (@EventPattern), run by the bus transport.
  controllers: [AuditLogController, AuditEventsConsumer],
  providers: [AuditLogRepository],
  exports: [AuditLogRepository],
})
export class AuditModule {}
