import { Module } from '@nestjs/common';
import { AudioListsModule } from '../audio-lists/audio-lists.module';
import { LessonPlansModule } from '../lesson-plans/lesson-plans.module';
import { SlidesModule } from '../slides/slides.module';
import { SeedService } from './seed.service';

/** The demo district's audio list, lesson plan and slides (demo sites only). */
@Module({
  imports: [AudioListsModule, LessonPlansModule, SlidesModule],
  providers: [SeedService],
})
export class SeedModule {}
