import { Inject, Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import {
  ClassroomMessages as M,
  Subjects,
  deriveEmbedUrl,
  type GoogleSlide,
  type GoogleSlideChangedEvent,
  type GoogleSlideDeletedEvent,
  type GoogleSlideInput,
} from '@district/contracts';
import { OutboxService, PLATFORM_LOGGER, type AuthUser, type Logger } from '@district/nest-common';
import { CLASSROOM_CONFIG, type ClassroomConfig } from '../classroom.config';
import { NotItemOwnerError, SlideNotFoundError } from '../classroom.errors';
import { canChange, isStaff, withRights } from '../rights/rights';
import { SchoolRights } from '../rights/school-rights';
import type { Creator } from '../rights/stored-item';
import { SlidesRepository, type StoredSlide } from './slides.repository';

/**
 * Google Slides (spec §3, §5, §6, §7): everyone signed in views, students (and anyone without a teacher's or admin's
 * rights) only the public ones; teachers and admins add; the creator or an admin edits and deletes. The embed is
 * always the server's derivation from the link (a client's `embedUrl` is ignored); a stored embed that differs from
 * the rule is recomputed when read, and stored corrected. Every change enqueues its `classroom.slide.*` event.
 */
@Injectable()
export class SlidesService {
  constructor(
    @Inject(DataSource) private readonly dataSource: DataSource,
    @Inject(SlidesRepository) private readonly slides: SlidesRepository,
    @Inject(OutboxService) private readonly outbox: OutboxService,
    @Inject(CLASSROOM_CONFIG) private readonly config: ClassroomConfig,
    @Inject(PLATFORM_LOGGER) private readonly logger: Logger,
    @Inject(SchoolRights) private readonly schools: SchoolRights,
  ) {}

  async list(user: AuthUser): Promise<GoogleSlide[]> {
    const stored = await this.slides.list(this.config.CLASSROOM_LIST_LIMIT, !isStaff(user));
    const administered = await this.schools.administeredBy(user);
    const served: GoogleSlide[] = [];
    for (const slide of stored) {
      const embedUrl = deriveEmbedUrl(slide.googleSlidesUrl);
      if (embedUrl !== slide.embedUrl) {
        await this.slides.fixEmbed(slide.id, slide.googleSlidesUrl, embedUrl);
        this.logger.info({ slideId: slide.id }, 'stored slide embed recomputed');
      }
      served.push(withRights(user, { ...slide, embedUrl }, administered));
    }
    return served;
  }

  async create(user: AuthUser, input: GoogleSlideInput): Promise<GoogleSlide> {
    const schoolId = await this.schools.schoolForNew(user, input.schoolId);
    const slide = await this.dataSource.transaction(async (tx) => {
      const created = (await this.slides.insert(
        tx,
        input,
        deriveEmbedUrl(input.googleSlidesUrl),
        { id: user.id, name: user.name },
        undefined,
        schoolId,
      )) as StoredSlide;
      await this.enqueueChanged(tx, Subjects.classroomSlideCreated, created);
      return created;
    });
    this.logger.info({ slideId: slide.id, isPublic: slide.isPublic }, 'slide added');
    return withRights(user, slide);
  }

  /** A fixed-id slide unless it exists (demo data); its created event when inserted. */
  async seed(tx: EntityManager, id: string, input: GoogleSlideInput, creator: Creator): Promise<boolean> {
    const created = await this.slides.insert(tx, input, deriveEmbedUrl(input.googleSlidesUrl), creator, id);
    if (created) await this.enqueueChanged(tx, Subjects.classroomSlideCreated, created);
    return created !== null;
  }

  /**
   * A fixed-id slide replaced by `input` if it still has one of the links earlier demo data gave it (never one a
   * teacher typed); its updated event when replaced.
   */
  async reseed(
    tx: EntityManager,
    id: string,
    retiredUrls: readonly string[],
    input: GoogleSlideInput,
  ): Promise<boolean> {
    const stored = await this.slides.findForUpdate(tx, id);
    if (!stored || !retiredUrls.includes(stored.googleSlidesUrl)) return false;
    await this.replace(tx, id, input);
    return true;
  }

  async update(user: AuthUser, id: string, input: GoogleSlideInput): Promise<GoogleSlide> {
    const slide = await this.dataSource.transaction(async (tx) => {
      await this.lockChangeable(tx, user, id);
      return this.replace(tx, id, input);
    });
    this.logger.info({ slideId: id, isPublic: slide.isPublic }, 'slide updated');
    return withRights(user, slide, await this.schools.administeredBy(user));
  }

  /** Writes `input` over the locked slide `id` (its embed URL derived again) with its updated event. */
  private async replace(tx: EntityManager, id: string, input: GoogleSlideInput): Promise<StoredSlide> {
    const updated = (await this.slides.update(
      tx,
      id,
      input,
      deriveEmbedUrl(input.googleSlidesUrl),
    )) as StoredSlide;
    await this.enqueueChanged(tx, Subjects.classroomSlideUpdated, updated);
    return updated;
  }

  async remove(user: AuthUser, id: string): Promise<void> {
    await this.dataSource.transaction(async (tx) => {
      const stored = await this.lockChangeable(tx, user, id);
      await this.slides.delete(tx, id);
      await this.outbox.enqueue(tx, Subjects.classroomSlideDeleted, {
        slideId: id,
        schoolId: stored.schoolId,
      } satisfies GoogleSlideDeletedEvent);
    });
    this.logger.info({ slideId: id }, 'slide deleted');
  }

  /**
   * The stored row, locked, if the caller may change it. A slide the caller cannot see (a private one, to a
   * student) is refused like any other: the route already needs a teacher's or admin's rights.
   */
  private async lockChangeable(tx: EntityManager, user: AuthUser, id: string): Promise<StoredSlide> {
    const stored = await this.slides.findForUpdate(tx, id);
    if (!stored) throw new SlideNotFoundError();
    if (!canChange(user, stored, await this.schools.administeredBy(user)))
      throw new NotItemOwnerError(M.slideOwnerOnly);
    return stored;
  }

  private async enqueueChanged(tx: EntityManager, subject: string, slide: StoredSlide): Promise<void> {
    const event: GoogleSlideChangedEvent = {
      slide: {
        id: slide.id,
        title: slide.title,
        isPublic: slide.isPublic,
        embedUrl: slide.embedUrl,
        creatorId: slide.creatorId,
        schoolId: slide.schoolId,
        updatedAt: slide.updatedAt,
      },
    };
    await this.outbox.enqueue(tx, subject, event);
  }
}
