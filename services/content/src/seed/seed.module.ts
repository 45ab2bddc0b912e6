import { Module } from '@nestjs/common';
import { CategoriesModule } from '../categories/categories.module';
import { CommentsModule } from '../comments/comments.module';
import { PostsModule } from '../posts/posts.module';
import { SeedService } from './seed.service';

@Module({
  imports: [CategoriesModule, PostsModule, CommentsModule],
  providers: [SeedService],
})
export class SeedModule {}
