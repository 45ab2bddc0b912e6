import { Inject, Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import type { CommentStatus } from '@district/contracts';
import type { FullComment } from './comment-rules';

interface CommentRow {
  id: string;
  post_id: string;
  parent_id: string | null;
  author_id: string | null;
  author_name: string;
  content: string;
  status: CommentStatus;
  created_at: Date;
  post_title?: string;
}

const COLUMNS = `c.id, c.post_id, c.parent_id, c.author_id, c.author_name, c.content, c.status, c.created_at`;

/** `viewerId`: adds `own` (whether that person wrote it); `''` for a signed-out viewer. */
function toComment(row: CommentRow, viewerId?: string): FullComment {
  return {
    id: row.id,
    postId: row.post_id,
    content: row.content,
    authorId: row.author_id,
    authorName: row.author_name,
    createdAt: row.created_at.toISOString(),
    parentId: row.parent_id,
    status: row.status,
    ...(viewerId !== undefined ? { own: row.author_id === viewerId } : {}),
    ...(row.post_title !== undefined ? { postTitle: row.post_title } : {}),
  };
}

export interface NewComment {
  postId: string;
  parentId: string | null;
  authorId: string;
  authorName: string;
  /** Sanitised HTML. */
  content: string;
  status: CommentStatus;
}

/** A removed comment, as its deleted event names it. */
export interface RemovedComment {
  id: string;
  postId: string;
}

/**
 * Where a deletion starts; replies under the comments found go too. Fixed statements, so no caller's text
 * ever becomes SQL.
 */
const DELETION_ROOTS = {
  ids: `SELECT id, post_id FROM comments WHERE id = ANY($1::uuid[])`,
  author: `SELECT id, post_id FROM comments WHERE author_id = $1`,
} as const;

/** The SQL of comments. `tx` runs a statement inside the caller's transaction. */
@Injectable()
export class CommentsRepository {
  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  /** What a comment is called in the audit log (its author, as stored) and where it was, read before it goes. */
  async auditTarget(
    tx: EntityManager,
    id: string,
  ): Promise<{
    target: { type: 'comment'; id: string; label: string };
    details: Record<string, unknown>;
  } | null> {
    const rows = (await tx.query(`SELECT author_name, author_id, post_id FROM comments WHERE id = $1`, [
      id,
    ])) as {
      author_name: string;
      author_id: string | null;
      post_id: string;
    }[];
    if (rows.length === 0) return null;
    const [row] = rows;
    return {
      target: { type: 'comment', id, label: row.author_name },
      details: { postId: row.post_id, authorId: row.author_id },
    };
  }

  /**
   * A post's comments, oldest first: approved ones, the viewer's own (`viewerId`), or all of them (`all`).
   * Each carries `own` for the viewer.
   */
  async listForPost(
    postId: string,
    viewer: { all: boolean; id: string | undefined },
  ): Promise<FullComment[]> {
    const rows: CommentRow[] = await this.dataSource.query(
      `SELECT ${COLUMNS} FROM comments c
       WHERE c.post_id = $1 AND (c.status = 'approved' OR $2::boolean OR c.author_id = $3::uuid)
       ORDER BY c.created_at, c.id`,
      [postId, viewer.all, viewer.id ?? null],
    );
    return rows.map((row) => toComment(row, viewer.id ?? ''));
  }

  /** Every comment with its post's title, newest first. */
  async listAll(): Promise<FullComment[]> {
    const rows: CommentRow[] = await this.dataSource.query(
      `SELECT ${COLUMNS}, p.title AS post_title FROM comments c JOIN posts p ON p.id = c.post_id
       ORDER BY c.created_at DESC, c.id DESC`,
    );
    return rows.map((row) => toComment(row));
  }

  /** A comment of the post that a reply names, locked so it cannot be unapproved or deleted meanwhile. */
  async lockParent(
    tx: EntityManager,
    id: string,
    postId: string,
  ): Promise<{ parentId: string | null; status: CommentStatus } | null> {
    const rows: { parent_id: string | null; status: CommentStatus }[] = await tx.query(
      `SELECT parent_id, status FROM comments WHERE id = $1 AND post_id = $2 FOR SHARE`,
      [id, postId],
    );
    return rows[0] ? { parentId: rows[0].parent_id, status: rows[0].status } : null;
  }

  /** The new comment, `own` for its author. */
  async insert(tx: EntityManager, comment: NewComment): Promise<FullComment> {
    const rows: CommentRow[] = await tx.query(
      `INSERT INTO comments AS c (post_id, parent_id, author_id, author_name, content, status)
       VALUES ($1, $2, $3, $4, $5, $6) RETURNING ${COLUMNS}`,
      [
        comment.postId,
        comment.parentId,
        comment.authorId,
        comment.authorName,
        comment.content,
        comment.status,
      ],
    );
    return toComment(rows[0], comment.authorId);
  }

  /** The changed comment with its post's title, or null when there is no such comment. */
  async setStatus(tx: EntityManager, id: string, status: CommentStatus): Promise<FullComment | null> {
    // UPDATE … RETURNING answers [rows, affected] through TypeORM's pg driver.
    const [rows] = (await tx.query(
      `UPDATE comments c SET status = $2 FROM posts p WHERE c.id = $1 AND p.id = c.post_id
       RETURNING ${COLUMNS}, p.title AS post_title`,
      [id, status],
    )) as [CommentRow[], number];
    return rows[0] ? toComment(rows[0]) : null;
  }

  /** Deletes these comments and the replies under them. */
  deleteByIds(tx: EntityManager, ids: readonly string[]): Promise<RemovedComment[]> {
    return this.deleteTrees(tx, 'ids', [ids]);
  }

  /** Deletes everything the author wrote and the replies under it (others' replies too). */
  deleteByAuthor(tx: EntityManager, authorId: string): Promise<RemovedComment[]> {
    return this.deleteTrees(tx, 'author', [authorId]);
  }

  /** A demo comment, unless its id exists or its post (or parent) does not. */
  async insertDemo(tx: EntityManager, comment: NewComment & { id: string; createdAt: Date }): Promise<void> {
    await tx.query(
      `INSERT INTO comments (id, post_id, parent_id, author_id, author_name, content, status, created_at)
       SELECT $1, $2, $3, $4, $5, $6, $7, $8
       WHERE EXISTS (SELECT 1 FROM posts WHERE id = $2)
         AND ($3::uuid IS NULL OR EXISTS (SELECT 1 FROM comments WHERE id = $3))
       ON CONFLICT DO NOTHING`,
      [
        comment.id,
        comment.postId,
        comment.parentId,
        comment.authorId,
        comment.authorName,
        comment.content,
        comment.status,
        comment.createdAt,
      ],
    );
  }

  private async deleteTrees(
    tx: EntityManager,
    roots: keyof typeof DELETION_ROOTS,
    params: unknown[],
  ): Promise<RemovedComment[]> {
    const [rows] = (await tx.query(
      `WITH RECURSIVE doomed AS (
         ${DELETION_ROOTS[roots]}
         UNION SELECT c.id, c.post_id FROM comments c JOIN doomed d ON c.parent_id = d.id
       )
       DELETE FROM comments WHERE id IN (SELECT id FROM doomed) RETURNING id, post_id`,
      params,
    )) as [{ id: string; post_id: string }[], number];
    return rows.map((row) => ({ id: row.id, postId: row.post_id }));
  }
}
