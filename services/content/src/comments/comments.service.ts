import { Inject, Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import {
  ContentMessages,
  Subjects,
  type Comment,
  type CommentChangedEvent,
  type CommentDeletedEvent,
  type CommentStatus,
} from '@district/contracts';
import {
  OutboxRelay,
  OutboxService,
  PLATFORM_LOGGER,
  type AuthUser,
  type Logger,
  holdsRight,
} from '@district/nest-common';
import { CommentNotFoundError, InvalidInputError, PostNotFoundError } from '../content.errors';
import { eventHeaders } from '../event-headers';
import { htmlToText, sanitizeCommentHtml } from '../html/html-sanitizer';
import { SiteSettingsService } from '../seo/site-settings.service';
import { UUID } from '../unique-violation';
import { CommentRateLimit } from './comment-rate-limit';

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

/** A comment as stored, author id included (events and admins need it; see forViewer). */
type FullComment = Comment & { authorId: string | null };

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

/** An admin flag counts only on an approved account (the platform's rule; anyone may register, an admin approves). */
function isApprovedAdmin(user: Pick<AuthUser, 'role' | 'approved' | 'isAdmin'> | undefined): boolean {
  return user !== undefined && holdsRight(user, 'admin');
}

/**
 * A comment as a viewer may see it: authors' user ids go to admins only, since lists are public and an id ties
 * a pupil's comments together across posts (the `own` flag tells the author which are theirs).
 */
function forViewer(comment: Comment, viewer: AuthUser | undefined): Comment {
  if (isApprovedAdmin(viewer)) return comment;
  const { authorId: _hidden, replies, ...rest } = comment;
  return replies ? { ...rest, replies: replies.map((reply) => forViewer(reply, viewer)) } : rest;
}

/**
 * The server decides a new comment's status (spec §4 has clients send one; only admins' is honoured):
 * approved admins choose (approved by default), approved teachers' comments are approved, and everyone else's
 * wait for approval while moderation is on. Anyone can register as a teacher, so the role and the admin flag
 * count only once an admin has approved the account.
 */
export function commentStatusFor(
  author: Pick<AuthUser, 'role' | 'approved' | 'isAdmin'>,
  requested: CommentStatus | undefined,
  moderation: boolean,
): CommentStatus {
  if (isApprovedAdmin(author)) return requested ?? 'approved';
  if (holdsRight(author, 'teacher')) return 'approved';
  return moderation ? 'pending' : 'approved';
}

/** Comments (spec §3–§5): one level of replies, only to approved top-level comments; HTML sanitised on the way in. */
@Injectable()
export class CommentsService {
  constructor(
    @Inject(DataSource) private readonly dataSource: DataSource,
    @Inject(OutboxService) private readonly outbox: OutboxService,
    @Inject(OutboxRelay) private readonly relay: OutboxRelay,
    @Inject(SiteSettingsService) private readonly settings: SiteSettingsService,
    @Inject(PLATFORM_LOGGER) private readonly logger: Logger,
    @Inject(CommentRateLimit) private readonly rateLimit: CommentRateLimit,
  ) {}

  /**
   * A post's comments, oldest first, replies nested under their parent. Everyone sees approved ones; a
   * signed-in author also sees their own pending ones; admins see all.
   */
  async listForPost(postId: string, viewer: AuthUser | undefined): Promise<Comment[]> {
    await this.assertReadablePost(this.dataSource.manager, postId, viewer);
    const rows: CommentRow[] = await this.dataSource.query(
      `SELECT ${COLUMNS} FROM comments c
       WHERE c.post_id = $1 AND (c.status = 'approved' OR $2::boolean OR c.author_id = $3::uuid)
       ORDER BY c.created_at, c.id`,
      [postId, isApprovedAdmin(viewer), viewer?.id ?? null],
    );
    const top: Comment[] = [];
    const byId = new Map<string, Comment>();
    for (const row of rows) {
      const comment = toComment(row, viewer?.id ?? '');
      if (row.parent_id === null) {
        comment.replies = [];
        top.push(comment);
        byId.set(comment.id, comment);
      }
    }
    for (const row of rows) {
      if (row.parent_id !== null) byId.get(row.parent_id)?.replies?.push(toComment(row, viewer?.id ?? ''));
    }
    return top.map((comment) => forViewer(comment, viewer));
  }

  /** Every comment with its post's title, newest first (admin moderation). */
  async listAll(): Promise<Comment[]> {
    const rows: CommentRow[] = await this.dataSource.query(
      `SELECT ${COLUMNS}, p.title AS post_title FROM comments c JOIN posts p ON p.id = c.post_id
       ORDER BY c.created_at DESC, c.id DESC`,
    );
    return rows.map((row) => toComment(row));
  }

  /** `address`: the client's IP, for the per-address rate limit. */
  async create(
    author: AuthUser,
    postId: string,
    input: { content: string; parentId?: string | null; status?: CommentStatus },
    address: string,
  ): Promise<Comment> {
    const content = sanitizeCommentHtml(input.content);
    if (!htmlToText(content)) throw new InvalidInputError(ContentMessages.commentEmpty);
    // Counted once the comment is valid (the controller has checked the sign-in and the body). Approved admins
    // are not limited: they moderate, and may already publish or remove anything.
    if (!isApprovedAdmin(author)) await this.rateLimit.consume(author.id, address);
    const { commentModeration } = await this.settings.get();
    const status = commentStatusFor(author, input.status, commentModeration);
    const comment = await this.dataSource.transaction(async (manager) => {
      await this.assertReadablePost(manager, postId, author);
      if (input.parentId) {
        // Locked, so the parent cannot be unapproved or deleted while the reply is written.
        const parents: { parent_id: string | null; status: CommentStatus }[] = await manager.query(
          `SELECT parent_id, status FROM comments WHERE id = $1 AND post_id = $2 FOR SHARE`,
          [input.parentId, postId],
        );
        const parent = parents[0];
        if (!parent || parent.parent_id !== null || parent.status !== 'approved')
          throw new InvalidInputError(ContentMessages.replyNotAllowed);
      }
      const rows: CommentRow[] = await manager.query(
        `INSERT INTO comments AS c (post_id, parent_id, author_id, author_name, content, status)
         VALUES ($1, $2, $3, $4, $5, $6) RETURNING ${COLUMNS}`,
        [postId, input.parentId ?? null, author.id, author.name, content, status],
      );
      const created = toComment(rows[0], author.id);
      await this.enqueueChanged(manager, Subjects.contentCommentCreated, created);
      return created;
    });
    this.relay.nudge();
    this.logger.info({ commentId: comment.id, postId, status }, 'comment created');
    return forViewer(comment, author);
  }

  async setStatus(id: string, status: CommentStatus): Promise<Comment> {
    if (!UUID.test(id)) throw new CommentNotFoundError();
    const comment = await this.dataSource.transaction(async (manager) => {
      // UPDATE … RETURNING answers [rows, affected] through TypeORM's pg driver.
      const [rows] = (await manager.query(
        `UPDATE comments c SET status = $2 FROM posts p WHERE c.id = $1 AND p.id = c.post_id
         RETURNING ${COLUMNS}, p.title AS post_title`,
        [id, status],
      )) as [CommentRow[], number];
      if (!rows[0]) throw new CommentNotFoundError();
      const changed = toComment(rows[0]);
      await this.enqueueChanged(manager, Subjects.contentCommentUpdated, changed);
      return changed;
    });
    this.relay.nudge();
    return comment;
  }

  /** Deletes the comment and its replies. */
  async remove(id: string): Promise<void> {
    if (!UUID.test(id)) throw new CommentNotFoundError();
    await this.dataSource.transaction(async (manager) => {
      const removed = await this.deleteWhere(manager, `id = $1`, [id]);
      if (removed.length === 0) throw new CommentNotFoundError();
    });
    this.relay.nudge();
  }

  /**
   * Deletes the comments matching `where` (and, by cascade, their replies), enqueueing a deleted event for
   * each. Used for admin deletion and when identity deletes a user.
   */
  async deleteWhere(manager: EntityManager, where: string, params: unknown[]): Promise<string[]> {
    const [rows] = (await manager.query(
      `WITH RECURSIVE doomed AS (
         SELECT id, post_id FROM comments WHERE ${where}
         UNION SELECT c.id, c.post_id FROM comments c JOIN doomed d ON c.parent_id = d.id
       )
       DELETE FROM comments WHERE id IN (SELECT id FROM doomed) RETURNING id, post_id`,
      params,
    )) as [{ id: string; post_id: string }[], number];
    for (const row of rows) {
      await this.outbox.enqueue(
        manager,
        Subjects.contentCommentDeleted,
        { commentId: row.id, postId: row.post_id } satisfies CommentDeletedEvent,
        eventHeaders(),
      );
    }
    return rows.map((r) => r.id);
  }

  private async enqueueChanged(manager: EntityManager, subject: string, comment: FullComment): Promise<void> {
    const event: CommentChangedEvent = {
      comment: {
        id: comment.id,
        postId: comment.postId,
        parentId: comment.parentId,
        authorId: comment.authorId,
        status: comment.status,
      },
    };
    await this.outbox.enqueue(manager, subject, event, eventHeaders());
  }

  /** Comments belong to published posts (admins also reach drafts). */
  private async assertReadablePost(
    manager: EntityManager,
    postId: string,
    viewer: AuthUser | undefined,
  ): Promise<void> {
    if (!UUID.test(postId)) throw new PostNotFoundError();
    const rows: unknown[] = await manager.query(
      `SELECT 1 FROM posts WHERE id = $1 AND (status = 'published' OR $2::boolean)`,
      [postId, isApprovedAdmin(viewer)],
    );
    if (rows.length === 0) throw new PostNotFoundError();
  }
}
