import { Module } from '@nestjs/common';
import { GradebookController } from './gradebook.controller';
import { GradebookRepository } from './gradebook.repository';
import { GradebookService } from './gradebook.service';

/** Results back to the district's SIS: the OneRoster gradebook export of a class (ADR 0042). */
@Module({
  controllers: [GradebookController],
  providers: [GradebookRepository, GradebookService],
})
export class GradebookModule {}
