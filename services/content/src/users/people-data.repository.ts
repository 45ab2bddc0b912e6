import { Inject, Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';

/**
 * The SQL of content's copies of people (identity's users): the names kept on posts and comments, and a person's
 * rows for their right-of-access file. `tx` runs a statement inside the caller's transaction (the inbox's).
 */
@Injectable()
export class PeopleDataRepository {
  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  /** The author name on their posts and comments, where it differs. */
  async rename(tx: EntityManager, userId: string, name: string): Promise<void> {
    await tx.query(`UPDATE posts SET author_name = $2 WHERE author_id = $1 AND author_name <> $2`, [
      userId,
      name,
    ]);
    await tx.query(`UPDATE comments SET author_name = $2 WHERE author_id = $1 AND author_name <> $2`, [
      userId,
      name,
    ]);
  }

  /** The name shown on every post they authored (a deleted person's lessons stay, under another name). */
  async renamePostsOf(tx: EntityManager, userId: string, name: string): Promise<void> {
    await tx.query(`UPDATE posts SET author_name = $2 WHERE author_id = $1`, [userId, name]);
  }

  /** The comments they wrote (pending ones too), with each post's title, oldest first. */
  commentsOf(userId: string): Promise<Record<string, unknown>[]> {
    return this.dataSource.query(
      `SELECT c.id, c.post_id AS "postId", p.title AS "postTitle", c.parent_id AS "parentId",
              c.author_name AS "authorName", c.content, c.status, c.created_at AS "createdAt"
         FROM comments c JOIN posts p ON p.id = c.post_id
        WHERE c.author_id = $1 ORDER BY c.created_at, c.id`,
      [userId],
    );
  }

  /** The posts they authored, oldest first. */
  postsOf(userId: string): Promise<Record<string, unknown>[]> {
    return this.dataSource.query(
      `SELECT id, title, slug, status, author_name AS "authorName", created_at AS "createdAt",
              published_at AS "publishedAt"
         FROM posts WHERE author_id = $1 ORDER BY created_at, id`,
      [userId],
    );
  }
}
