import { Module } from '@nestjs/common';

/** The district's roster import (OneRoster 1.2 CSV, ADR 0042): upload, background apply, progress and history. */
@Module({})
export class RosterModule {}
