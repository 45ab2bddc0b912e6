import { Inject, Injectable } from '@nestjs/common';
import type { PublicPostsQuery } from '@district/contracts';
import { PublicListCache, type RenderedPage } from './public-list-cache';
import { renderPage } from './public-list-http';
import { PostsRepository } from './posts.repository';

/**
 * The public lesson list, served from rendered pages kept in memory (see public-list-cache.ts for why they
 * cannot go stale): every replica hears every committed change through public-list-listener.ts, and the
 * replica that wrote forgets its pages at once through `changed()`.
 */
@Injectable()
export class PublicPostList {
  constructor(
    @Inject(PublicListCache) private readonly pages: PublicListCache,
    @Inject(PostsRepository) private readonly posts: PostsRepository,
  ) {}

  /**
   * A page of the list, rendered: from memory when this replica has it and nothing changed since, otherwise
   * from the database. `fresh` (a client bypassing caches) always reads the database.
   */
  page(query: PublicPostsQuery, options: { fresh: boolean }): Promise<RenderedPage> {
    const key = PublicListCache.key(query);
    const build = async () => {
      const { posts, total } = await this.posts.listPublic(query);
      return renderPage(posts, total);
    };
    return options.fresh ? this.pages.refresh(key, build) : this.pages.load(key, build);
  }

  /**
   * After a committed write, before its answer leaves: this replica's pages are forgotten at once, so whoever
   * made the change sees it on their next read. Other replicas (and this one again) hear the commit's
   * notification a moment later.
   */
  changed(): void {
    this.pages.invalidate();
  }
}
