import { Controller, Get, Inject, Query } from '@nestjs/common';
import { auditLogQuerySchema, type AuditLogPage, type AuditLogQuery } from '@district/contracts';
import { RequireAdmin, ZodPipe } from '@district/nest-common';
import { AuditLogRepository } from './audit-log.repository';

/**
 * The audit log of administrative actions (issue #14 §5, ADR 0021), for administrators: filtered and paged,
 * newest first. Read only — there is no route that changes or removes an entry.
 */
@Controller('api/admin')
@RequireAdmin()
export class AuditLogController {
  constructor(@Inject(AuditLogRepository) private readonly log: AuditLogRepository) {}

  @Get('audit-log')
  list(@Query(new ZodPipe(auditLogQuerySchema)) query: AuditLogQuery): Promise<AuditLogPage> {
    return this.log.page(query);
  }
}
