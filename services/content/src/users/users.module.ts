import { Module } from '@nestjs/common';
import { PeopleDataModule } from '@district/nest-common';
import { CommentsModule } from '../comments/comments.module';
import { CONTENT_PEOPLE_DATA, ContentPeopleData } from './people-data.holder';
import { PeopleDataRepository } from './people-data.repository';
import { UserEventsConsumer } from './user-events.consumer';

/** content's copies of people, kept in step with identity's events; its people's data (ADR 0036). */
@Module({
  // The platform's audit trail and its export and erasure handlers, for the holder provided here.
  imports: [CommentsModule, PeopleDataModule.forService('content', CONTENT_PEOPLE_DATA)],
  // UserEventsConsumer handles identity's events (@EventPattern), run by the platform's bus transport.
  controllers: [UserEventsConsumer],
  providers: [ContentPeopleData, PeopleDataRepository],
})
export class UsersModule {}
