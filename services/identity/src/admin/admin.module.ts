import { Module } from '@nestjs/common';
import { UsersModule } from '../users/users.module';
import { AuditEventsConsumer } from './audit-events.consumer';
import { AuditLogController } from './audit-log.controller';
import { UserExportController } from './user-export.controller';
import { UserExportService } from './user-export.service';

/**
 * Administrators' privacy and accountability tools (ADR 0021): the right-of-access export and the audit log
 * (its repository comes from UsersModule, whose changes append to it in their own transactions).
 */
@Module({
  imports: [UsersModule],
  // AuditEventsConsumer records the other services' audit events (@EventPattern), run by the bus transport.
  controllers: [UserExportController, AuditLogController, AuditEventsConsumer],
  providers: [UserExportService],
})
export class AdminModule {}
