import { Module } from '@nestjs/common';
import { GradesModule } from '../grades/grades.module';
import { QuizzesModule } from '../quizzes/quizzes.module';
import { SeedService } from './seed.service';

/** The demo district's quizzes and results (demo sites only). */
@Module({
  imports: [QuizzesModule, GradesModule],
  providers: [SeedService],
})
export class SeedModule {}
