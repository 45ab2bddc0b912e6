import { Inject, Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';

/** Every table whose rows name their creator (fixed names: no SQL is built from input). */
const CREATOR_TABLES = ['audio_lists', 'lesson_plans', 'google_slides'] as const;

/** The headings of the items a deletion anonymised, for their `classroom.*.updated` events. */
export interface AnonymisedItems {
  audioLists: { id: string; title: string; fileCount: number; schoolId: string | null; updatedAt: string }[];
  lessonPlans: { id: string; title: string; subject: string; schoolId: string | null; updatedAt: string }[];
  slides: {
    id: string;
    title: string;
    isPublic: boolean;
    embedUrl: string;
    schoolId: string | null;
    updatedAt: string;
  }[];
}

/**
 * The SQL of creators across classroom's items, for identity's events (inside the inbox transaction) and for a
 * person's right-of-access file.
 */
@Injectable()
export class CreatorsRepository {
  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  /** The items a person created, by kind, oldest first (fixed statements: no SQL is built from input). */
  async createdBy(
    creatorId: string,
  ): Promise<Record<'audioLists' | 'lessonPlans' | 'slides', Record<string, unknown>[]>> {
    const rows = (sql: string) =>
      this.dataSource.query(sql, [creatorId]) as Promise<Record<string, unknown>[]>;
    const audioLists = await rows(
      `SELECT id, title, description, audio_files AS "audioFiles", creator_name AS "creatorName",
              created_at AS "createdAt", updated_at AS "updatedAt"
         FROM audio_lists WHERE creator_id = $1 ORDER BY created_at, id`,
    );
    const lessonPlans = await rows(
      `SELECT id, title, teacher, subject, topic, creator_name AS "creatorName", created_at AS "createdAt",
              updated_at AS "updatedAt"
         FROM lesson_plans WHERE creator_id = $1 ORDER BY created_at, id`,
    );
    const slides = await rows(
      `SELECT id, title, description, google_slides_url AS "googleSlidesUrl", is_public AS "isPublic",
              creator_name AS "creatorName", created_at AS "createdAt", updated_at AS "updatedAt"
         FROM google_slides WHERE creator_id = $1 ORDER BY created_at, id`,
    );
    return { audioLists, lessonPlans, slides };
  }

  /** The name shown on a person's items follows their account's. */
  async rename(tx: EntityManager, creatorId: string, name: string): Promise<number> {
    let renamed = 0;
    for (const table of CREATOR_TABLES) {
      const [, affected] = (await tx.query(
        `UPDATE ${table} SET creator_name = $2 WHERE creator_id = $1 AND creator_name <> $2`,
        [creatorId, name],
      )) as [unknown, number];
      renamed += affected;
    }
    return renamed;
  }

  /**
   * A deleted person's items stay with the district, anonymised (ADR 0020): no creator id, `formerName` as the
   * creator, and a lesson plan's "teacher" line cleared when it only repeated their name. Answers the ids changed.
   */
  async anonymise(tx: EntityManager, creatorId: string, formerName: string): Promise<AnonymisedItems> {
    const rows = async <T>(sql: string): Promise<T[]> => {
      const [changed] = (await tx.query(sql, [creatorId, formerName])) as [T[], number];
      return changed;
    };
    const audioLists = await rows<{
      id: string;
      title: string;
      file_count: number;
      school_id: string | null;
      updated_at: Date;
    }>(
      `UPDATE audio_lists SET creator_id = NULL, creator_name = $2, updated_at = now() WHERE creator_id = $1
       RETURNING id, title, jsonb_array_length(audio_files) AS file_count, school_id::text AS school_id, updated_at`,
    );
    const lessonPlans = await rows<{
      id: string;
      title: string;
      subject: string;
      school_id: string | null;
      updated_at: Date;
    }>(
      `UPDATE lesson_plans SET creator_id = NULL, creator_name = $2, updated_at = now(),
         teacher = CASE WHEN lower(btrim(teacher)) = lower(btrim(creator_name)) THEN '' ELSE teacher END
       WHERE creator_id = $1
       RETURNING id, title, subject, school_id::text AS school_id, updated_at`,
    );
    const slides = await rows<{
      id: string;
      title: string;
      is_public: boolean;
      embed_url: string;
      school_id: string | null;
      updated_at: Date;
    }>(
      `UPDATE google_slides SET creator_id = NULL, creator_name = $2, updated_at = now() WHERE creator_id = $1
       RETURNING id, title, is_public, embed_url, school_id::text AS school_id, updated_at`,
    );
    return {
      audioLists: audioLists.map((r) => ({
        id: r.id,
        title: r.title,
        fileCount: Number(r.file_count),
        schoolId: r.school_id,
        updatedAt: r.updated_at.toISOString(),
      })),
      lessonPlans: lessonPlans.map((r) => ({
        id: r.id,
        title: r.title,
        subject: r.subject,
        schoolId: r.school_id,
        updatedAt: r.updated_at.toISOString(),
      })),
      slides: slides.map((r) => ({
        id: r.id,
        title: r.title,
        isPublic: r.is_public,
        embedUrl: r.embed_url,
        schoolId: r.school_id,
        updatedAt: r.updated_at.toISOString(),
      })),
    };
  }
}
