import { Controller, Inject } from '@nestjs/common';
import { MessagePattern } from '@nestjs/microservices';
import { Subjects, type UserExportReply, type UserExportRequest } from '@district/contracts';
import { DataSource } from 'typeorm';

/**
 * classroom's part of a person's right-of-access file (ADR 0021), asked by identity over the bus
 * (`classroom.user.export.v1`): the audio lists, lesson plans and slide decks they created (fixed table names:
 * no SQL is built from input).
 */
@Controller()
export class UserExportResponder {
  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  @MessagePattern(Subjects.classroomUserExport)
  async answer({ userId }: UserExportRequest): Promise<UserExportReply> {
    const id = userId.toLowerCase();
    const rows = async (sql: string) => (await this.dataSource.query(sql, [id])) as Record<string, unknown>[];
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
    return { service: 'classroom', sections: { audioLists, lessonPlans, slides } };
  }
}
