import { Module } from '@nestjs/common';
import { SchoolRights } from './school-rights';
import { SchoolsRepository } from './schools.repository';

/** Items' schools and who administers them (issue #36), for the three item domains. */
@Module({
  providers: [SchoolsRepository, SchoolRights],
  exports: [SchoolRights],
})
export class RightsModule {}
