import { Module } from '@nestjs/common';
import { UsersModule } from '../users/users.module';
import { UserExportController } from './user-export.controller';
import { UserExportService } from './user-export.service';

/**
 * Administrators' right-of-access export (ADRs 0021, 0036): identity's own record and every registered holder's
 * part. The audit log is its own domain (audit/).
 */
@Module({
  imports: [UsersModule],
  controllers: [UserExportController],
  providers: [UserExportService],
})
export class AdminModule {}
