import { Module } from '@nestjs/common';
import { QuizzesModule } from '../quizzes/quizzes.module';
import { AudioAttemptsController, TextAttemptsController } from './attempts.controller';
import { AudioGradesController, TextGradesController } from './grades.controller';
import { GradePagesRepository } from './grade-pages.repository';
import { GradePagesService } from './grade-pages.service';
import { GradesRepository } from './grades.repository';
import { GradesService } from './grades.service';

/** Results: attempts, marking, the attempt limit, the lists and their deletion. */
@Module({
  imports: [QuizzesModule],
  controllers: [AudioAttemptsController, TextAttemptsController, AudioGradesController, TextGradesController],
  providers: [GradesRepository, GradesService, GradePagesRepository, GradePagesService],
  exports: [GradesRepository, GradesService],
})
export class GradesModule {}
