import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  Inject,
  Param,
  Patch,
  Post,
  UseInterceptors,
} from '@nestjs/common';
import {
  commentStatusRequestSchema,
  createCommentRequestSchema,
  ContentMessages,
  type Comment,
} from '@district/contracts';
import {
  CurrentUser,
  Public,
  RequireAdmin,
  ZodPipe,
  type AuthUser,
  DocumentAccess,
} from '@district/nest-common';
import type { z } from 'zod';
import { ContentErrorsInterceptor } from '../content-errors.interceptor';
import { SignInRequiredError } from '../content.errors';
import { CommentsService } from './comments.service';

/** Comments (spec §7): read by anyone, written by anyone signed in, moderated by admins. */
@Controller('api')
@UseInterceptors(ContentErrorsInterceptor)
export class CommentsController {
  constructor(@Inject(CommentsService) private readonly comments: CommentsService) {}

  @Get('posts/:postId/comments')
  @Public()
  list(@Param('postId') postId: string, @CurrentUser() viewer: AuthUser | undefined): Promise<Comment[]> {
    return this.comments.listForPost(postId, viewer);
  }

  /** Public at the guard so a signed-out visitor gets the spec's own message rather than the generic one. */
  @Post('posts/:postId/comments')
  @Public()
  @DocumentAccess('signed-in')
  create(
    @Param('postId') postId: string,
    @CurrentUser() author: AuthUser | undefined,
    @Body() raw: unknown,
  ): Promise<Comment> {
    // Sign-in first, then the body: a signed-out visitor learns what to do before what is wrong.
    if (!author) throw new SignInRequiredError(ContentMessages.signInToComment);
    return this.comments.create(author, postId, new ZodPipe(createCommentRequestSchema).transform(raw));
  }

  @Get('comments')
  @RequireAdmin()
  listAll(): Promise<Comment[]> {
    return this.comments.listAll();
  }

  @Patch('comments/:id/status')
  @RequireAdmin()
  setStatus(
    @Param('id') id: string,
    @Body(new ZodPipe(commentStatusRequestSchema)) body: z.infer<typeof commentStatusRequestSchema>,
  ): Promise<Comment> {
    return this.comments.setStatus(id, body.status);
  }

  @Delete('comments/:id')
  @RequireAdmin()
  @HttpCode(204)
  async remove(@Param('id') id: string): Promise<void> {
    await this.comments.remove(id);
  }
}
