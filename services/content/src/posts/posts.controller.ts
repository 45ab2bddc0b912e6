import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  Inject,
  Param,
  Patch,
  Post as HttpPost,
  Put,
  Query,
  Req,
  Res,
  UseInterceptors,
} from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  TOTAL_COUNT_HEADER,
  createPostRequestSchema,
  postStatusRequestSchema,
  publicPostsQuerySchema,
  updatePostRequestSchema,
  type Post,
} from '@district/contracts';
import { CurrentUser, Public, RequireAdmin, ZodPipe, type AuthUser } from '@district/nest-common';
import type { z } from 'zod';
import { ContentErrorsInterceptor } from '../content-errors.interceptor';
import { JSON_TYPE, REVALIDATE, sendCached } from '../http/etag';
import { PostsService } from './posts.service';

/** Posts (spec §7). Reading published posts is public; writing is for admins (see README, "who writes"). */
@Controller('api/posts')
@UseInterceptors(ContentErrorsInterceptor)
export class PostsController {
  constructor(@Inject(PostsService) private readonly posts: PostsService) {}

  /** The lesson list: an array (spec), paged by `limit`/`page`, the total in X-Total-Count. */
  @Get('public')
  @Public()
  async listPublic(
    @Query(new ZodPipe(publicPostsQuerySchema)) query: z.infer<typeof publicPostsQuerySchema>,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<FastifyReply> {
    const { posts, total } = await this.posts.listPublic(query);
    return sendCached(request, reply, JSON.stringify(posts), {
      contentType: JSON_TYPE,
      cacheControl: REVALIDATE,
      headers: { [TOTAL_COUNT_HEADER]: String(total), 'access-control-expose-headers': TOTAL_COUNT_HEADER },
    });
  }

  /** One published post by slug or id; a client bypassing caches always gets a full answer. */
  @Get('public/:slug')
  @Public()
  async findPublic(
    @Param('slug') slug: string,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<FastifyReply> {
    const post = await this.posts.findPublic(slug);
    return sendCached(request, reply, JSON.stringify(post), {
      contentType: JSON_TYPE,
      cacheControl: REVALIDATE,
    });
  }

  @Get()
  @RequireAdmin()
  listAll(): Promise<Post[]> {
    return this.posts.listAll();
  }

  /** Published posts for anyone; drafts for admins only. */
  @Get(':id')
  @Public()
  findOne(@Param('id') id: string, @CurrentUser() viewer: AuthUser | undefined): Promise<Post> {
    return this.posts.findById(id, viewer);
  }

  @HttpPost()
  @RequireAdmin()
  create(
    @CurrentUser() author: AuthUser,
    @Body(new ZodPipe(createPostRequestSchema)) body: z.infer<typeof createPostRequestSchema>,
  ): Promise<Post> {
    return this.posts.create(author, withoutAuthor(body));
  }

  @Put(':id')
  @RequireAdmin()
  update(
    @Param('id') id: string,
    @Body(new ZodPipe(updatePostRequestSchema)) body: z.infer<typeof updatePostRequestSchema>,
  ): Promise<Post> {
    return this.posts.update(id, withoutAuthor(body));
  }

  @Patch(':id/status')
  @RequireAdmin()
  setStatus(
    @Param('id') id: string,
    @Body(new ZodPipe(postStatusRequestSchema)) body: z.infer<typeof postStatusRequestSchema>,
  ): Promise<Post> {
    return this.posts.setStatus(id, body.status);
  }

  @Delete(':id')
  @RequireAdmin()
  @HttpCode(204)
  async remove(@Param('id') id: string): Promise<void> {
    await this.posts.remove(id);
  }
}

/** The author is whoever created the post; names follow identity's events, not the editor's form. */
function withoutAuthor<T extends { authorId?: unknown; authorName?: unknown }>(
  body: T,
): Omit<T, 'authorId' | 'authorName'> {
  const { authorId: _id, authorName: _name, ...rest } = body;
  return rest;
}
