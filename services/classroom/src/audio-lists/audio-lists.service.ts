import { Inject, Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import {
  ClassroomMessages as M,
  Subjects,
  type AudioList,
  type AudioListChangedEvent,
  type AudioListDeletedEvent,
  type AudioListInput,
} from '@district/contracts';
import { OutboxService, PLATFORM_LOGGER, type AuthUser, type Logger } from '@district/nest-common';
import { CLASSROOM_CONFIG, type ClassroomConfig } from '../classroom.config';
import { AudioListNotFoundError, NotItemOwnerError } from '../classroom.errors';
import { canChange, withRights } from '../rights/rights';
import { SchoolRights } from '../rights/school-rights';
import type { Creator } from '../rights/stored-item';
import { AudioListsRepository, type StoredAudioList } from './audio-lists.repository';

/**
 * Audio lists (spec §3, §6, §7): everyone signed in lists them; teachers and admins create them; the creator or an
 * admin edits and deletes (decided from the stored row, locked for the change). Every change enqueues its
 * `classroom.audiolist.*` event in the transaction that makes it.
 */
@Injectable()
export class AudioListsService {
  constructor(
    @Inject(DataSource) private readonly dataSource: DataSource,
    @Inject(AudioListsRepository) private readonly lists: AudioListsRepository,
    @Inject(OutboxService) private readonly outbox: OutboxService,
    @Inject(CLASSROOM_CONFIG) private readonly config: ClassroomConfig,
    @Inject(PLATFORM_LOGGER) private readonly logger: Logger,
    @Inject(SchoolRights) private readonly schools: SchoolRights,
  ) {}

  async list(user: AuthUser): Promise<AudioList[]> {
    const administered = await this.schools.administeredBy(user);
    return (await this.lists.list(this.config.CLASSROOM_LIST_LIMIT)).map((l) =>
      withRights(user, l, administered),
    );
  }

  async create(user: AuthUser, input: AudioListInput): Promise<AudioList> {
    const schoolId = await this.schools.schoolForNew(user, input.schoolId);
    const list = await this.dataSource.transaction(async (tx) => {
      const created = (await this.lists.insert(
        tx,
        input,
        { id: user.id, name: user.name },
        undefined,
        schoolId,
      )) as StoredAudioList;
      await this.enqueueChanged(tx, Subjects.classroomAudioListCreated, created);
      return created;
    });
    this.logger.info({ audioListId: list.id, files: list.audioFiles.length }, 'audio list created');
    return withRights(user, list);
  }

  /** A fixed-id list unless it exists (demo data); its created event when inserted. */
  async seed(tx: EntityManager, id: string, input: AudioListInput, creator: Creator): Promise<boolean> {
    const created = await this.lists.insert(tx, input, creator, id);
    if (created) await this.enqueueChanged(tx, Subjects.classroomAudioListCreated, created);
    return created !== null;
  }

  async update(user: AuthUser, id: string, input: AudioListInput): Promise<AudioList> {
    const list = await this.dataSource.transaction(async (tx) => {
      await this.lockChangeable(tx, user, id);
      const updated = (await this.lists.update(tx, id, input)) as StoredAudioList;
      await this.enqueueChanged(tx, Subjects.classroomAudioListUpdated, updated);
      return updated;
    });
    this.logger.info({ audioListId: id, files: list.audioFiles.length }, 'audio list updated');
    return withRights(user, list, await this.schools.administeredBy(user));
  }

  async remove(user: AuthUser, id: string): Promise<void> {
    await this.dataSource.transaction(async (tx) => {
      const stored = await this.lockChangeable(tx, user, id);
      await this.lists.delete(tx, id);
      await this.outbox.enqueue(tx, Subjects.classroomAudioListDeleted, {
        audioListId: id,
        schoolId: stored.schoolId,
      } satisfies AudioListDeletedEvent);
    });
    this.logger.info({ audioListId: id }, 'audio list deleted');
  }

  private async lockChangeable(tx: EntityManager, user: AuthUser, id: string): Promise<StoredAudioList> {
    const stored = await this.lists.findForUpdate(tx, id);
    if (!stored) throw new AudioListNotFoundError();
    if (!canChange(user, stored, await this.schools.administeredBy(user)))
      throw new NotItemOwnerError(M.audioListOwnerOnly);
    return stored;
  }

  private async enqueueChanged(tx: EntityManager, subject: string, list: StoredAudioList): Promise<void> {
    const event: AudioListChangedEvent = {
      audioList: {
        id: list.id,
        title: list.title,
        fileCount: list.audioFiles.length,
        creatorId: list.creatorId,
        schoolId: list.schoolId,
        updatedAt: list.updatedAt,
      },
    };
    await this.outbox.enqueue(tx, subject, event);
  }
}
