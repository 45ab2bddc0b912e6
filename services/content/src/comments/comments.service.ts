import { Inject, Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import {
  auditRecord,
  ContentMessages,
  Subjects,
  type AuditStamp,
  type Comment,
  type CommentChangedEvent,
  type CommentDeletedEvent,
  type CommentStatus,
} from '@district/contracts';
import {
  AuditTrail,
  OutboxService,
  PLATFORM_LOGGER,
  UUID_PATTERN,
  type AuthUser,
  type Logger,
} from '@district/nest-common';
import { CommentNotFoundError, InvalidInputError, PostNotFoundError } from '../content.errors';
import { sanitizeCommentHtml } from '../html/html-sanitizer';
import { htmlToText } from '../html/html-text';
import { PostsRepository } from '../posts/posts.repository';
import { SiteSettingsService } from '../settings/site-settings.service';
import { CommentRateLimit } from './comment-rate-limit';
import { commentStatusFor, forViewer, isApprovedAdmin, threaded, type FullComment } from './comment-rules';
import { CommentsRepository, type RemovedComment } from './comments.repository';

/** Comments (spec §3–§5): one level of replies, only to approved top-level comments; HTML sanitised on the way in. */
@Injectable()
export class CommentsService {
  constructor(
    @Inject(DataSource) private readonly dataSource: DataSource,
    @Inject(CommentsRepository) private readonly comments: CommentsRepository,
    @Inject(PostsRepository) private readonly posts: PostsRepository,
    @Inject(OutboxService) private readonly outbox: OutboxService,
    @Inject(AuditTrail) private readonly audit: AuditTrail,
    @Inject(SiteSettingsService) private readonly settings: SiteSettingsService,
    @Inject(PLATFORM_LOGGER) private readonly logger: Logger,
    @Inject(CommentRateLimit) private readonly rateLimit: CommentRateLimit,
  ) {}

  /**
   * A post's comments, oldest first, replies nested under their parent. Everyone sees approved ones; a
   * signed-in author also sees their own pending ones; admins see all.
   */
  async listForPost(postId: string, viewer: AuthUser | undefined): Promise<Comment[]> {
    await this.assertReadablePost(postId, viewer);
    const comments = await this.comments.listForPost(postId, {
      all: isApprovedAdmin(viewer),
      id: viewer?.id,
    });
    return threaded(comments).map((comment) => forViewer(comment, viewer));
  }

  /** Every comment with its post's title, newest first (admin moderation). */
  listAll(): Promise<Comment[]> {
    return this.comments.listAll();
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
    const comment = await this.dataSource.transaction(async (tx) => {
      await this.assertReadablePost(postId, author, tx);
      if (input.parentId) {
        const parent = await this.comments.lockParent(tx, input.parentId, postId);
        if (!parent || parent.parentId !== null || parent.status !== 'approved')
          throw new InvalidInputError(ContentMessages.replyNotAllowed);
      }
      const created = await this.comments.insert(tx, {
        postId,
        parentId: input.parentId ?? null,
        authorId: author.id,
        authorName: author.name,
        content,
        status,
      });
      await this.enqueueChanged(tx, Subjects.contentCommentCreated, created);
      return created;
    });
    this.logger.info({ commentId: comment.id, postId, status }, 'comment created');
    return forViewer(comment, author);
  }

  /** Moderation; `by` (the administrator) goes to the audit log with the change (ADR 0021). */
  async setStatus(id: string, status: CommentStatus, by?: AuditStamp): Promise<Comment> {
    if (!UUID_PATTERN.test(id)) throw new CommentNotFoundError();
    const comment = await this.dataSource.transaction(async (tx) => {
      const changed = await this.comments.setStatus(tx, id, status);
      if (!changed) throw new CommentNotFoundError();
      await this.enqueueChanged(tx, Subjects.contentCommentUpdated, changed);
      const audited = by ? await this.comments.auditTarget(tx, id) : null;
      if (by && audited)
        await this.audit.record(
          tx,
          auditRecord(by, status === 'approved' ? 'comment.approved' : 'comment.unapproved', audited.target, {
            ...audited.details,
            status,
          }),
        );
      return changed;
    });
    return comment;
  }

  /** Deletes the comment and its replies. */
  async remove(id: string, by?: AuditStamp): Promise<void> {
    if (!UUID_PATTERN.test(id)) throw new CommentNotFoundError();
    await this.dataSource.transaction(async (tx) => {
      const audited = by ? await this.comments.auditTarget(tx, id) : null;
      const removed = await this.removed(tx, await this.comments.deleteByIds(tx, [id]));
      if (removed.length === 0) throw new CommentNotFoundError();
      if (by && audited)
        await this.audit.record(
          tx,
          auditRecord(by, 'comment.deleted', audited.target, {
            ...audited.details,
            removedWithReplies: removed.length,
          }),
        );
    });
  }

  /**
   * Deletes everything a (deleted) user wrote and the replies under it, in the caller's transaction, with a
   * deleted event for each comment. Answers the ids removed.
   */
  async deleteByAuthor(tx: EntityManager, authorId: string): Promise<string[]> {
    return this.removed(tx, await this.comments.deleteByAuthor(tx, authorId));
  }

  /** Enqueues a deleted event for each removed comment; answers their ids. */
  private async removed(tx: EntityManager, comments: RemovedComment[]): Promise<string[]> {
    for (const comment of comments) {
      await this.outbox.enqueue(tx, Subjects.contentCommentDeleted, {
        commentId: comment.id,
        postId: comment.postId,
      } satisfies CommentDeletedEvent);
    }
    return comments.map((comment) => comment.id);
  }

  private async enqueueChanged(tx: EntityManager, subject: string, comment: FullComment): Promise<void> {
    const event: CommentChangedEvent = {
      comment: {
        id: comment.id,
        postId: comment.postId,
        parentId: comment.parentId,
        authorId: comment.authorId,
        status: comment.status,
      },
    };
    await this.outbox.enqueue(tx, subject, event);
  }

  /** Comments belong to published posts (admins also reach drafts). */
  private async assertReadablePost(
    postId: string,
    viewer: AuthUser | undefined,
    tx?: EntityManager,
  ): Promise<void> {
    if (!UUID_PATTERN.test(postId)) throw new PostNotFoundError();
    if (!(await this.posts.isOpen(postId, isApprovedAdmin(viewer), tx))) throw new PostNotFoundError();
  }
}
