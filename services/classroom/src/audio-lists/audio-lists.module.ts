import { Module } from '@nestjs/common';
import { RightsModule } from '../rights/rights.module';
import { AudioListsController } from './audio-lists.controller';
import { AudioListsRepository } from './audio-lists.repository';
import { AudioListsService } from './audio-lists.service';

/** Audio lists: the list, the staff's writes, the creator's or an admin's edits. */
@Module({
  imports: [RightsModule],
  controllers: [AudioListsController],
  providers: [AudioListsRepository, AudioListsService],
  // The demo seed writes through the service.
  exports: [AudioListsService],
})
export class AudioListsModule {}
