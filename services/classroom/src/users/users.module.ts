import { Module } from '@nestjs/common';
import { CreatorsRepository } from './creators.repository';
import { UserEventsConsumer } from './user-events.consumer';

/** identity's changes to people, as classroom keeps them (creator names, deleted creators). */
@Module({
  // UserEventsConsumer handles identity's events (@EventPattern), run by the platform's bus transport.
  controllers: [UserEventsConsumer],
  providers: [CreatorsRepository],
})
export class UsersModule {}
