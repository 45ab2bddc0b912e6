import { Module } from '@nestjs/common';
import { RosterModule } from '../roster/roster.module';
import { UsersModule } from '../users/users.module';
import { DemoRosterRepository } from './demo-roster.repository';
import { SeedService } from './seed.service';

@Module({
  imports: [UsersModule, RosterModule],
  providers: [SeedService, DemoRosterRepository],
})
export class SeedModule {}
