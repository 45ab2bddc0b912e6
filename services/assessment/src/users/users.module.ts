import { Module } from '@nestjs/common';
import { GradesModule } from '../grades/grades.module';
import { QuizzesModule } from '../quizzes/quizzes.module';
import { UserEventsConsumer } from './user-events.consumer';

/** identity's changes to people, as assessment keeps them. */
@Module({
  imports: [GradesModule, QuizzesModule],
  // UserEventsConsumer handles identity's events (@EventPattern), run by the platform's bus transport.
  controllers: [UserEventsConsumer],
})
export class UsersModule {}
