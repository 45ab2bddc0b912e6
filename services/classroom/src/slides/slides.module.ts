import { Module } from '@nestjs/common';
import { RightsModule } from '../rights/rights.module';
import { SlidesController } from './slides.controller';
import { SlidesRepository } from './slides.repository';
import { SlidesService } from './slides.service';

/** The Google Slides library. */
@Module({
  imports: [RightsModule],
  controllers: [SlidesController],
  providers: [SlidesRepository, SlidesService],
  // The demo seed writes through the service.
  exports: [SlidesService],
})
export class SlidesModule {}
