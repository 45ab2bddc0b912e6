import { Module } from '@nestjs/common';

/** The district's schools and classes as people see them (ADR 0042): GET /api/schools, /api/classes. */
@Module({})
export class DistrictModule {}
