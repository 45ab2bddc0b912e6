import { Module } from '@nestjs/common';
import { GradesModule } from '../grades/grades.module';
import { QuizzesModule } from '../quizzes/quizzes.module';
import { UserEventsConsumer } from './user-events.consumer';
import { UserExportResponder } from './user-export.responder';

/** identity's changes to people, as assessment keeps them. */
@Module({
  imports: [GradesModule, QuizzesModule],
  // UserEventsConsumer handles identity's events (@EventPattern), run by the platform's bus transport;
  // UserExportResponder answers identity's right-of-access requests (@MessagePattern, ADR 0021).
  controllers: [UserEventsConsumer, UserExportResponder],
})
export class UsersModule {}
