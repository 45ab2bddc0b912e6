import { Module } from '@nestjs/common';
import { CreatorsRepository } from './creators.repository';
import { UserEventsConsumer } from './user-events.consumer';
import { UserExportResponder } from './user-export.responder';

/** identity's changes to people, as classroom keeps them (creator names, deleted creators). */
@Module({
  // UserEventsConsumer handles identity's events (@EventPattern), run by the platform's bus transport;
  // UserExportResponder answers identity's right-of-access requests (@MessagePattern, ADR 0021).
  controllers: [UserEventsConsumer, UserExportResponder],
  providers: [CreatorsRepository],
})
export class UsersModule {}
