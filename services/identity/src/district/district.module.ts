import { Module } from '@nestjs/common';
import { ClassesController } from './classes.controller';
import { DistrictRepository } from './district.repository';
import { DistrictService } from './district.service';
import { SchoolsController } from './schools.controller';

/** The district's schools and classes as people see them (ADR 0042): GET /api/schools, /api/classes. */
@Module({
  controllers: [SchoolsController, ClassesController],
  providers: [DistrictService, DistrictRepository],
})
export class DistrictModule {}
