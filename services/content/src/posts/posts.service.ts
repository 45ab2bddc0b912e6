import { Inject, Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import {
  ContentMessages,
  Subjects,
  type Post,
  type PostDeletedEvent,
  type PostPublishedEvent,
  type PostStatus,
  type PostUnpublishedEvent,
} from '@district/contracts';
import {
  OutboxService,
  PLATFORM_LOGGER,
  UUID_PATTERN,
  canonicalUuid,
  mapUniqueViolation,
  violatedUniqueConstraint,
  type AuthUser,
  type Logger,
} from '@district/nest-common';
import { CategoriesRepository } from '../categories/categories.repository';
import { CategoryNotFoundError, PostNotFoundError, SlugTakenError } from '../content.errors';
import { newPost, postChanges, type PostInput } from './post-input';
import { firstFreeSlug, newPostSlug } from './post-slug';
import { POST_SLUG_KEY, PostsRepository } from './posts.repository';
import { PublicPostList } from './public-list.service';

const INSERT_RETRIES = 3;

/**
 * Posts (spec §3, §4): the use cases. Content is sanitised on the way in and the derived columns follow it
 * (post-input.ts); slugs follow post-slug.ts. Publishing, unpublishing and deleting enqueue their event in the
 * same transaction as the change, and every committed write refreshes the public list at once.
 */
@Injectable()
export class PostsService {
  constructor(
    @Inject(DataSource) private readonly dataSource: DataSource,
    @Inject(PostsRepository) private readonly posts: PostsRepository,
    @Inject(CategoriesRepository) private readonly categories: CategoriesRepository,
    @Inject(PublicPostList) private readonly publicList: PublicPostList,
    @Inject(OutboxService) private readonly outbox: OutboxService,
    @Inject(PLATFORM_LOGGER) private readonly logger: Logger,
  ) {}

  /** A published post by slug or id; drafts are not found. */
  async findPublic(slugOrId: string): Promise<Post> {
    const post = await this.posts.findPublished(slugOrId, canonicalUuid(slugOrId) ?? null);
    if (!post) throw new PostNotFoundError();
    return post;
  }

  /** Every post, newest first (admin list). */
  listAll(): Promise<Post[]> {
    return this.posts.listAll();
  }

  /** One post by id; drafts only for admins. */
  async findById(id: string, viewer: AuthUser | undefined): Promise<Post> {
    const post = await this.posts.find(id);
    if (!post || (post.status !== 'published' && !viewer?.isAdmin)) throw new PostNotFoundError();
    return post;
  }

  async create(author: AuthUser, input: PostInput & { title: string }): Promise<Post> {
    const base = newPostSlug(input);
    for (let attempt = 0; ; attempt++) {
      try {
        const post = await this.dataSource.transaction(async (tx) => {
          if (input.categoryId) await this.assertCategory(tx, input.categoryId);
          await this.posts.lockSlugBase(tx, base);
          const slug = firstFreeSlug(base, await this.posts.slugsLike(tx, base));
          const id = await this.posts.insert(tx, newPost(author, input, slug));
          const created = await this.mustFind(tx, id);
          if (created.status === 'published') await this.enqueuePublished(tx, created);
          return created;
        });
        this.committed();
        this.logger.info({ postId: post.id, status: post.status }, 'post created');
        return post;
      } catch (error) {
        // Another post took the slug between the check and the insert: pick again.
        if (violatedUniqueConstraint(error) === POST_SLUG_KEY && attempt < INSERT_RETRIES) continue;
        throw error;
      }
    }
  }

  /** Changes the fields sent. The slug stays as it is unless one is sent, so links keep working. */
  async update(id: string, input: PostInput): Promise<Post> {
    try {
      const post = await this.underLock(id, async (tx, before) => {
        if (input.categoryId) await this.assertCategory(tx, input.categoryId);
        const changes = await postChanges(before, input, () => this.posts.contentText(tx, id));
        if (!(await this.posts.update(tx, id, changes))) return before;
        const after = await this.mustFind(tx, id);
        await this.enqueueStatusEvents(tx, before, after);
        return after;
      });
      this.committed();
      return post;
    } catch (error) {
      const taken = () => new SlugTakenError(ContentMessages.postSlugTaken);
      throw mapUniqueViolation(error, { [POST_SLUG_KEY]: taken }) ?? error;
    }
  }

  async setStatus(id: string, status: PostStatus): Promise<Post> {
    const post = await this.underLock(id, async (tx, before) => {
      if (before.status === status) return before;
      await this.posts.update(tx, id, { status });
      const after = await this.mustFind(tx, id);
      await this.enqueueStatusEvents(tx, before, after);
      return after;
    });
    this.committed();
    this.logger.info({ postId: id, status }, 'post status changed');
    return post;
  }

  /** Deletes the post and its comments. */
  async remove(id: string): Promise<void> {
    await this.underLock(id, async (tx) => {
      await this.posts.delete(tx, id);
      await this.outbox.enqueue(tx, Subjects.contentPostDeleted, { postId: id } satisfies PostDeletedEvent);
    });
    this.committed();
    this.logger.info({ postId: id }, 'post deleted');
  }

  /** After a commit: this replica's public pages are forgotten at once (the platform wakes the outbox relay). */
  private committed(): void {
    this.publicList.changed();
  }

  private async enqueueStatusEvents(tx: EntityManager, before: Post, after: Post): Promise<void> {
    if (after.status === 'published') await this.enqueuePublished(tx, after);
    else if (before.status === 'published')
      await this.outbox.enqueue(tx, Subjects.contentPostUnpublished, {
        postId: after.id,
        slug: after.slug,
      } satisfies PostUnpublishedEvent);
  }

  private async enqueuePublished(tx: EntityManager, post: Post): Promise<void> {
    const event: PostPublishedEvent = {
      post: {
        id: post.id,
        slug: post.slug,
        title: post.title,
        authorId: post.authorId,
        categoryId: post.categoryId,
        publishedAt: post.publishedAt ?? new Date().toISOString(),
      },
    };
    await this.outbox.enqueue(tx, Subjects.contentPostPublished, event);
  }

  private async assertCategory(tx: EntityManager, categoryId: string): Promise<void> {
    if (!(await this.categories.exists(categoryId, tx))) throw new CategoryNotFoundError();
  }

  private async mustFind(tx: EntityManager, id: string): Promise<Post> {
    const post = await this.posts.find(id, tx);
    if (!post) throw new PostNotFoundError();
    return post;
  }

  /** Runs `work` holding the post's row lock, so two status changes cannot both think they published it. */
  private underLock<T>(id: string, work: (tx: EntityManager, post: Post) => Promise<T>): Promise<T> {
    if (!UUID_PATTERN.test(id)) throw new PostNotFoundError();
    return this.dataSource.transaction(async (tx) => {
      if (!(await this.posts.lock(tx, id))) throw new PostNotFoundError();
      return work(tx, await this.mustFind(tx, id));
    });
  }
}
