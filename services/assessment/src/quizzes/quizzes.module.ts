import { Module } from '@nestjs/common';
import { AudioQuizzesController, TextQuizzesController } from './quizzes.controller';
import { QuizzesRepository } from './quizzes.repository';
import { QuizzesService } from './quizzes.service';

/** Audio and text quizzes: the lists, the authors' writes, accommodations. */
@Module({
  controllers: [AudioQuizzesController, TextQuizzesController],
  providers: [QuizzesRepository, QuizzesService],
  // Grades mark against the stored quiz; the demo seed writes quizzes through the service.
  exports: [QuizzesRepository, QuizzesService],
})
export class QuizzesModule {}
