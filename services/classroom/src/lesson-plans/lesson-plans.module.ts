import { Module } from '@nestjs/common';
import { RightsModule } from '../rights/rights.module';
import { LessonPlansController } from './lesson-plans.controller';
import { LessonPlansRepository } from './lesson-plans.repository';
import { LessonPlansService } from './lesson-plans.service';

/** Lesson plans (5E): teachers' and admins' only. */
@Module({
  imports: [RightsModule],
  controllers: [LessonPlansController],
  providers: [LessonPlansRepository, LessonPlansService],
  // The demo seed writes through the service.
  exports: [LessonPlansService],
})
export class LessonPlansModule {}
