import { Module } from '@nestjs/common';
import { PeopleDataModule } from '@district/nest-common';
import { GradesModule } from '../grades/grades.module';
import { QuizzesModule } from '../quizzes/quizzes.module';
import { ASSESSMENT_PEOPLE_DATA, AssessmentPeopleData } from './people-data.holder';
import { PeopleDataRepository } from './people-data.repository';
import { UserEventsConsumer } from './user-events.consumer';

/** identity's changes to people, as assessment keeps them; its people's data (ADR 0036). */
@Module({
  // The platform's audit trail and its export and erasure handlers, for the holder provided here.
  imports: [GradesModule, QuizzesModule, PeopleDataModule.forService('assessment', ASSESSMENT_PEOPLE_DATA)],
  // UserEventsConsumer handles identity's events (@EventPattern), run by the platform's bus transport.
  controllers: [UserEventsConsumer],
  providers: [AssessmentPeopleData, PeopleDataRepository],
})
export class UsersModule {}
