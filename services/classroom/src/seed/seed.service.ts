import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { PLATFORM_LOGGER, PLATFORM_RUNTIME, type Logger, type PlatformRuntime } from '@district/nest-common';
import { AudioListsService } from '../audio-lists/audio-lists.service';
import { LessonPlansService } from '../lesson-plans/lesson-plans.service';
import { SlidesService } from '../slides/slides.service';
import { DEMO_AUDIO_LIST, DEMO_AUTHOR, DEMO_LESSON_PLAN, DEMO_SLIDES } from './demo-classroom';

/**
 * On a demo site, the demo audio list, lesson plan and slides. An item with the same id is left as it is, so
 * restarts and racing replicas are harmless and a teacher's edits (or deletions) are not undone; the one exception is
 * a demo slide still carrying an invented link of earlier demo data, which is replaced by the real deck.
 */
@Injectable()
export class SeedService implements OnApplicationBootstrap {
  constructor(
    @Inject(DataSource) private readonly dataSource: DataSource,
    @Inject(AudioListsService) private readonly audioLists: AudioListsService,
    @Inject(LessonPlansService) private readonly lessonPlans: LessonPlansService,
    @Inject(SlidesService) private readonly slides: SlidesService,
    @Inject(PLATFORM_RUNTIME) private readonly runtime: PlatformRuntime,
    @Inject(PLATFORM_LOGGER) private readonly logger: Logger,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (this.runtime.demo) await this.seedDemo();
  }

  /** Answers how many items were created, and how many demo slides with invented links were replaced. */
  async seedDemo(): Promise<{
    audioLists: number;
    lessonPlans: number;
    slides: number;
    slidesReplaced: number;
  }> {
    const author = { id: DEMO_AUTHOR.id, name: DEMO_AUTHOR.name };
    const created = await this.dataSource.transaction(async (tx) => {
      const audioLists = Number(
        await this.audioLists.seed(tx, DEMO_AUDIO_LIST.id, DEMO_AUDIO_LIST.input, author),
      );
      const lessonPlans = Number(
        await this.lessonPlans.seed(tx, DEMO_LESSON_PLAN.id, DEMO_LESSON_PLAN.input, author),
      );
      let slides = 0;
      let slidesReplaced = 0;
      for (const demo of DEMO_SLIDES) {
        slides += Number(await this.slides.seed(tx, demo.id, demo.input, author));
        slidesReplaced += Number(await this.slides.reseed(tx, demo.id, demo.retiredUrls, demo.input));
      }
      return { audioLists, lessonPlans, slides, slidesReplaced };
    });
    if (created.audioLists + created.lessonPlans + created.slides + created.slidesReplaced > 0)
      this.logger.info(created, 'demo classroom material seeded');
    return created;
  }
}
