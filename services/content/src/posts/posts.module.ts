import { Module } from '@nestjs/common';
import { CategoriesModule } from '../categories/categories.module';
import { PostsController } from './posts.controller';
import { PostsRepository } from './posts.repository';
import { PostsService } from './posts.service';
import { PublicListCache } from './public-list-cache';
import { PublicListListener } from './public-list-listener';
import { PublicPostList } from './public-list.service';

/**
 * Posts: the use cases, their SQL, and the public list kept rendered in memory — one cache per process, told
 * of every committed change by the listener. Other domains read and write posts through the repository.
 */
@Module({
  imports: [CategoriesModule],
  controllers: [PostsController],
  providers: [
    PostsRepository,
    PostsService,
    { provide: PublicListCache, useFactory: () => new PublicListCache() },
    PublicListListener,
    PublicPostList,
  ],
  exports: [PostsRepository],
})
export class PostsModule {}
