import { Inject, Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import type { GoogleSlide, GoogleSlideInput } from '@district/contracts';
import { jsonb } from '@district/nest-common';
import type { Creator } from '../rights/stored-item';

interface SlideRow {
  id: string;
  title: string;
  description: string;
  google_slides_url: string;
  embed_url: string;
  is_public: boolean;
  category: string;
  tags: string[];
  creator_id: string | null;
  creator_name: string;
  school_id: string | null;
  created_at: Date;
  updated_at: Date;
}

/** A slide as stored: the contract's fields but `canEdit`, which depends on the caller. */
export type StoredSlide = Omit<GoogleSlide, 'canEdit' | 'schoolId'> & { schoolId: string | null };

const COLUMNS = `id, title, description, google_slides_url, embed_url, is_public, category, tags, creator_id,
  creator_name, school_id::text AS school_id, created_at, updated_at`;

function toSlide(row: SlideRow): StoredSlide {
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    googleSlidesUrl: row.google_slides_url,
    embedUrl: row.embed_url,
    isPublic: row.is_public,
    category: row.category,
    tags: row.tags,
    creatorId: row.creator_id,
    creatorName: row.creator_name,
    schoolId: row.school_id,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

/** The SQL of Google Slides. `tx` runs a statement inside the caller's transaction. */
@Injectable()
export class SlidesRepository {
  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  /** Newest first, at most `limit`; only the public ones when `publicOnly`. */
  async list(limit: number, publicOnly: boolean): Promise<StoredSlide[]> {
    const rows: SlideRow[] = await this.dataSource.query(
      `SELECT ${COLUMNS} FROM google_slides WHERE is_public OR NOT $2 ORDER BY created_at DESC, id LIMIT $1`,
      [limit, publicOnly],
    );
    return rows.map(toSlide);
  }

  /** The row locked for the caller's change (FOR UPDATE), or null. */
  async findForUpdate(tx: EntityManager, id: string): Promise<StoredSlide | null> {
    const rows: SlideRow[] = await tx.query(`SELECT ${COLUMNS} FROM google_slides WHERE id = $1 FOR UPDATE`, [
      id,
    ]);
    return rows.length > 0 ? toSlide(rows[0]) : null;
  }

  /**
   * A new slide (of `schoolId`) with its derived embed; with `id`, nothing when that id exists (demo data),
   * answering null.
   */
  async insert(
    tx: EntityManager,
    input: GoogleSlideInput,
    embedUrl: string,
    creator: Creator,
    id?: string,
    schoolId: string | null = null,
  ): Promise<StoredSlide | null> {
    const rows: SlideRow[] = await tx.query(
      `INSERT INTO google_slides (id, title, description, google_slides_url, embed_url, is_public, category, tags,
         creator_id, creator_name, school_id)
       VALUES (COALESCE($1::uuid, gen_random_uuid()), $2, $3, $4, $5, $6, $7, $8::jsonb, $9, $10, $11::uuid)
       ON CONFLICT (id) DO NOTHING
       RETURNING ${COLUMNS}`,
      [
        id ?? null,
        input.title,
        input.description,
        input.googleSlidesUrl,
        embedUrl,
        input.isPublic,
        input.category,
        jsonb(input.tags),
        creator.id,
        creator.name,
        schoolId,
      ],
    );
    return rows.length > 0 ? toSlide(rows[0]) : null;
  }

  /** The whole slide replaced; null when it is gone. */
  async update(
    tx: EntityManager,
    id: string,
    input: GoogleSlideInput,
    embedUrl: string,
  ): Promise<StoredSlide | null> {
    const [rows] = (await tx.query(
      `UPDATE google_slides SET title = $2, description = $3, google_slides_url = $4, embed_url = $5, is_public = $6,
         category = $7, tags = $8::jsonb, updated_at = now()
       WHERE id = $1
       RETURNING ${COLUMNS}`,
      [
        id,
        input.title,
        input.description,
        input.googleSlidesUrl,
        embedUrl,
        input.isPublic,
        input.category,
        jsonb(input.tags),
      ],
    )) as [SlideRow[], number];
    return rows.length > 0 ? toSlide(rows[0]) : null;
  }

  /** A stored embed corrected to the rule's (only when the link is still the one it was derived from). */
  async fixEmbed(id: string, googleSlidesUrl: string, embedUrl: string): Promise<void> {
    await this.dataSource.query(
      `UPDATE google_slides SET embed_url = $3 WHERE id = $1 AND google_slides_url = $2 AND embed_url <> $3`,
      [id, googleSlidesUrl, embedUrl],
    );
  }

  async delete(tx: EntityManager, id: string): Promise<boolean> {
    const [, affected] = (await tx.query(`DELETE FROM google_slides WHERE id = $1`, [id])) as [
      unknown,
      number,
    ];
    return affected > 0;
  }
}
