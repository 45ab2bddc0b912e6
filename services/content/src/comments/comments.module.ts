import { Module } from '@nestjs/common';
import { PostsModule } from '../posts/posts.module';
import { SettingsModule } from '../settings/settings.module';
import { CommentRateLimit } from './comment-rate-limit';
import { CommentsController } from './comments.controller';
import { CommentsRepository } from './comments.repository';
import { CommentsService } from './comments.service';

/** Comments on posts; the rate limits come from the root module (read from the environment at start). */
@Module({
  imports: [PostsModule, SettingsModule],
  controllers: [CommentsController],
  providers: [CommentsRepository, CommentsService, CommentRateLimit],
  exports: [CommentsRepository, CommentsService],
})
export class CommentsModule {}
