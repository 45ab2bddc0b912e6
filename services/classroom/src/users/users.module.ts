import { Module } from '@nestjs/common';
import { PeopleDataModule } from '@district/nest-common';
import { CreatorsRepository } from './creators.repository';
import { CLASSROOM_PEOPLE_DATA, ClassroomPeopleData } from './people-data.holder';
import { UserEventsConsumer } from './user-events.consumer';

/** identity's changes to people, as classroom keeps them (creator names); its people's data (ADR 0036). */
@Module({
  // The platform's export and erasure handlers, for the holder provided here.
  imports: [PeopleDataModule.forService('classroom', CLASSROOM_PEOPLE_DATA)],
  // UserEventsConsumer handles identity's events (@EventPattern), run by the platform's bus transport.
  controllers: [UserEventsConsumer],
  providers: [CreatorsRepository, ClassroomPeopleData],
})
export class UsersModule {}
