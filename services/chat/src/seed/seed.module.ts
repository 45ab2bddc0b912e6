import { Module } from '@nestjs/common';
import { ChatroomsModule } from '../chatrooms/chatrooms.module';
import { SeedService } from './seed.service';

@Module({
  imports: [ChatroomsModule],
  providers: [SeedService],
})
export class SeedModule {}
