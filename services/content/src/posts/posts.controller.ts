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
  createPostRequestSchema,
  postStatusRequestSchema,
  publicPostsQuerySchema,
  updatePostRequestSchema,
  type Post,
} from '@district/contracts';
import {
  CurrentUser,
  IdParam,
  Public,
  RequireAdmin,
  TextParamPipe,
  ZodPipe,
  type AuthUser,
} from '@district/nest-common';
import type { z } from 'zod';
import { ContentErrorsInterceptor } from '../content-errors.interceptor';
import { PostNotFoundError } from '../content.errors';
import { JSON_TYPE, REVALIDATE, sendCached } from '../http/etag';
import { PostsService } from './posts.service';
import { bypassesCaches, sendPage } from './public-list-http';
import { PublicPostList } from './public-list.service';

/** A post id, canonicalised by the platform; anything but a UUID is the spec's 'Post Not Found'. */
const PostId = () => IdParam('id', () => new PostNotFoundError());
/** Slugs are stored at most this long (ids are 36): a longer one cannot name a post. */
const MAX_SLUG_PARAM = 120;

/**
 * Posts (spec §7). Reading published posts is public; writing is for admins (see README, "who writes").
 * Every route that can meet one of content's expected failures maps it with `ContentErrorsInterceptor`; the
 * public list cannot (its only failures are a bad query, already an HTTP 400, and the database's), and runs
 * without it: an interceptor costs each request two async-context bindings and an RxJS pipeline, which were
 * over a tenth of a kept page's CPU (bench/reports/content.md).
 */
@Controller('api/posts')
export class PostsController {
  constructor(
    @Inject(PostsService) private readonly posts: PostsService,
    @Inject(PublicPostList) private readonly publicList: PublicPostList,
  ) {}

  /**
   * The lesson list: an array (spec), paged by `limit`/`page`, the total in X-Total-Count. Pages are kept
   * rendered in memory until posts or categories change; a client bypassing caches gets one built now.
   */
  @Get('public')
  @Public()
  async listPublic(
    @Query(new ZodPipe(publicPostsQuerySchema)) query: z.infer<typeof publicPostsQuerySchema>,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<FastifyReply> {
    const page = await this.publicList.page(query, { fresh: bypassesCaches(request) });
    return sendPage(request, reply, page);
  }

  /** One published post by slug or id; a client bypassing caches always gets a full answer. */
  @Get('public/:slug')
  @UseInterceptors(ContentErrorsInterceptor)
  @Public()
  async findPublic(
    @Param('slug', new TextParamPipe(MAX_SLUG_PARAM, () => new PostNotFoundError())) slug: string,
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
  @UseInterceptors(ContentErrorsInterceptor)
  @RequireAdmin()
  listAll(): Promise<Post[]> {
    return this.posts.listAll();
  }

  /** Published posts for anyone; drafts for admins only. */
  @Get(':id')
  @UseInterceptors(ContentErrorsInterceptor)
  @Public()
  findOne(@PostId() id: string, @CurrentUser() viewer: AuthUser | undefined): Promise<Post> {
    return this.posts.findById(id, viewer);
  }

  @HttpPost()
  @UseInterceptors(ContentErrorsInterceptor)
  @RequireAdmin()
  create(
    @CurrentUser() author: AuthUser,
    @Body(new ZodPipe(createPostRequestSchema)) body: z.infer<typeof createPostRequestSchema>,
  ): Promise<Post> {
    return this.posts.create(author, withoutAuthor(body));
  }

  @Put(':id')
  @UseInterceptors(ContentErrorsInterceptor)
  @RequireAdmin()
  update(
    @PostId() id: string,
    @Body(new ZodPipe(updatePostRequestSchema)) body: z.infer<typeof updatePostRequestSchema>,
  ): Promise<Post> {
    return this.posts.update(id, withoutAuthor(body));
  }

  @Patch(':id/status')
  @UseInterceptors(ContentErrorsInterceptor)
  @RequireAdmin()
  setStatus(
    @PostId() id: string,
    @Body(new ZodPipe(postStatusRequestSchema)) body: z.infer<typeof postStatusRequestSchema>,
  ): Promise<Post> {
    return this.posts.setStatus(id, body.status);
  }

  @Delete(':id')
  @UseInterceptors(ContentErrorsInterceptor)
  @RequireAdmin()
  @HttpCode(204)
  async remove(@PostId() id: string): Promise<void> {
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
