import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  Inject,
  Ip,
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
  IdParam,
  IdPipe,
} from '@district/nest-common';
import type { z } from 'zod';
import { ContentErrorsInterceptor } from '../content-errors.interceptor';
import { CommentNotFoundError, PostNotFoundError, SignInRequiredError } from '../content.errors';
import { CommentsService } from './comments.service';

/** Comments (spec §7): read by anyone, written by anyone signed in, moderated by admins. */
@Controller('api')
@UseInterceptors(ContentErrorsInterceptor)
export class CommentsController {
  constructor(@Inject(CommentsService) private readonly comments: CommentsService) {}

  @Get('posts/:postId/comments')
  @Public()
  list(
    @IdParam('postId', () => new PostNotFoundError()) postId: string,
    @CurrentUser() viewer: AuthUser | undefined,
  ): Promise<Comment[]> {
    return this.comments.listForPost(postId, viewer);
  }

  /** Public at the guard so a signed-out visitor gets the spec's own message rather than the generic one. */
  @Post('posts/:postId/comments')
  @Public()
  @DocumentAccess('signed-in')
  create(
    @Param('postId') rawPostId: string,
    @CurrentUser() author: AuthUser | undefined,
    @Body() raw: unknown,
    @Ip() address: string,
  ): Promise<Comment> {
    // Sign-in first, then the post id and the body: a signed-out visitor learns what to do before what is wrong
    // (so the id is checked here, not by an @IdParam pipe, which would run before this line). Neither refusal
    // counts towards the rate limits (the service counts valid comments only).
    if (!author) throw new SignInRequiredError(ContentMessages.signInToComment);
    const postId = new IdPipe(() => new PostNotFoundError()).transform(rawPostId);
    const input = new ZodPipe(createCommentRequestSchema).transform(raw);
    return this.comments.create(author, postId, input, address);
  }

  @Get('comments')
  @RequireAdmin()
  listAll(): Promise<Comment[]> {
    return this.comments.listAll();
  }

  @Patch('comments/:id/status')
  @RequireAdmin()
  setStatus(
    @IdParam('id', () => new CommentNotFoundError()) id: string,
    @Body(new ZodPipe(commentStatusRequestSchema)) body: z.infer<typeof commentStatusRequestSchema>,
    @CurrentUser() actor: AuthUser,
    @Ip() ip: string,
  ): Promise<Comment> {
    return this.comments.setStatus(id, body.status, { actorId: actor.id, actorName: actor.name, ip });
  }

  @Delete('comments/:id')
  @RequireAdmin()
  @HttpCode(204)
  async remove(
    @IdParam('id', () => new CommentNotFoundError()) id: string,
    @CurrentUser() actor: AuthUser,
    @Ip() ip: string,
  ): Promise<void> {
    await this.comments.remove(id, { actorId: actor.id, actorName: actor.name, ip });
  }
}
