import { Module } from '@nestjs/common';
import { UsersModule } from '../users/users.module';
import { RosterImportRunner } from './roster-import.runner';
import { RosterImportService } from './roster-import.service';
import { RosterImportsController } from './roster-imports.controller';
import { RosterImportsRepository } from './roster-imports.repository';
import { RosterMembershipApplier } from './roster-membership.applier';
import { RosterStructureApplier } from './roster-structure.applier';
import { RosterUsersApplier } from './roster-users.applier';
import { RosterUsersRepository } from './roster-users.repository';
import { RosterRepository } from './roster.repository';

/**
 * The district's roster import (OneRoster 1.2 CSV, ADR 0042): upload, background apply, progress and history.
 * RosterImportService.importFile runs an import without HTTP (the demo seed, benchmarks).
 */
@Module({
  imports: [UsersModule],
  controllers: [RosterImportsController],
  providers: [
    RosterImportService,
    RosterImportRunner,
    RosterImportsRepository,
    RosterRepository,
    RosterUsersRepository,
    RosterStructureApplier,
    RosterMembershipApplier,
    RosterUsersApplier,
  ],
  exports: [RosterImportService],
})
export class RosterModule {}
