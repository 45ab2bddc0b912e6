import { Inject, Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import type { AudioFile, AudioListInput } from '@district/contracts';
import { jsonb } from '@district/nest-common';
import type { Creator, StoredItem } from '../rights/stored-item';

interface AudioListRow {
  id: string;
  title: string;
  description: string;
  audio_files: AudioFile[];
  creator_id: string | null;
  creator_name: string;
  school_id: string | null;
  created_at: Date;
  updated_at: Date;
}

/** An audio list as stored: the contract's fields but `canEdit`, which depends on the caller. */
export type StoredAudioList = StoredItem<{ title: string; description: string; audioFiles: AudioFile[] }>;

const COLUMNS = `id, title, description, audio_files, creator_id, creator_name, school_id::text AS school_id,
  created_at, updated_at`;

function toList(row: AudioListRow): StoredAudioList {
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    audioFiles: row.audio_files,
    creatorId: row.creator_id,
    creatorName: row.creator_name,
    schoolId: row.school_id,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

/** The SQL of audio lists. `tx` runs a statement inside the caller's transaction. */
@Injectable()
export class AudioListsRepository {
  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  /** Newest first, at most `limit`. */
  async list(limit: number): Promise<StoredAudioList[]> {
    const rows: AudioListRow[] = await this.dataSource.query(
      `SELECT ${COLUMNS} FROM audio_lists ORDER BY created_at DESC, id LIMIT $1`,
      [limit],
    );
    return rows.map(toList);
  }

  /** The row locked for the caller's change (FOR UPDATE), or null. */
  async findForUpdate(tx: EntityManager, id: string): Promise<StoredAudioList | null> {
    const rows: AudioListRow[] = await tx.query(
      `SELECT ${COLUMNS} FROM audio_lists WHERE id = $1 FOR UPDATE`,
      [id],
    );
    return rows.length > 0 ? toList(rows[0]) : null;
  }

  /** A new list (of `schoolId`); with `id`, nothing when that id exists (demo data), answering null. */
  async insert(
    tx: EntityManager,
    input: AudioListInput,
    creator: Creator,
    id?: string,
    schoolId: string | null = null,
  ): Promise<StoredAudioList | null> {
    const rows: AudioListRow[] = await tx.query(
      `INSERT INTO audio_lists (id, title, description, audio_files, creator_id, creator_name, school_id)
       VALUES (COALESCE($1::uuid, gen_random_uuid()), $2, $3, $4::jsonb, $5, $6, $7::uuid)
       ON CONFLICT (id) DO NOTHING
       RETURNING ${COLUMNS}`,
      [
        id ?? null,
        input.title,
        input.description,
        jsonb(input.audioFiles),
        creator.id,
        creator.name,
        schoolId,
      ],
    );
    return rows.length > 0 ? toList(rows[0]) : null;
  }

  /** The whole list replaced; null when it is gone. */
  async update(tx: EntityManager, id: string, input: AudioListInput): Promise<StoredAudioList | null> {
    const [rows] = (await tx.query(
      `UPDATE audio_lists SET title = $2, description = $3, audio_files = $4::jsonb, updated_at = now()
       WHERE id = $1
       RETURNING ${COLUMNS}`,
      [id, input.title, input.description, jsonb(input.audioFiles)],
    )) as [AudioListRow[], number];
    return rows.length > 0 ? toList(rows[0]) : null;
  }

  async delete(tx: EntityManager, id: string): Promise<boolean> {
    const [, affected] = (await tx.query(`DELETE FROM audio_lists WHERE id = $1`, [id])) as [unknown, number];
    return affected > 0;
  }
}
