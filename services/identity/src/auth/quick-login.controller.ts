import {
  Body,
  Controller,
  Get,
  Header,
  HttpCode,
  Inject,
  Post,
  Query,
  Redirect,
  Req,
  Res,
  UseGuards,
  UseInterceptors,
} from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { quickLoginRequestSchema, type User } from '@district/contracts';
import { Public, ZodPipe } from '@district/nest-common';
import { IdentityErrorsInterceptor } from '../identity-errors.interceptor';
import { toUser } from '../users/user.mapper';
import { AuthService, type QuickLoginChoice } from './auth.service';
import { DemoOnlyGuard } from './demo-only.guard';
import { SessionCookies } from './session-cookies.service';

const quickLoginQuerySchema = quickLoginRequestSchema.pick({ type: true });

/** Where the GET shortcut lands: the first tool a signed-in visitor can use. */
export const QUICK_LOGIN_LANDING = '/listen-to-type';

/** Demo shortcuts: sign in as a seeded demo account without a password, on demo sites only. */
@Controller('api/auth/quick-login')
@Public()
@UseGuards(DemoOnlyGuard)
@UseInterceptors(IdentityErrorsInterceptor)
export class QuickLoginController {
  constructor(
    @Inject(AuthService) private readonly auth: AuthService,
    @Inject(SessionCookies) private readonly cookies: SessionCookies,
  ) {}

  @Post()
  @HttpCode(200)
  @Header('Cache-Control', 'no-store')
  async post(
    @Body(new ZodPipe(quickLoginRequestSchema)) body: QuickLoginChoice,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<User> {
    const user = await this.auth.demoAccount(body);
    await this.cookies.signIn(request, reply, user);
    return toUser(user);
  }

  @Get()
  @Redirect(QUICK_LOGIN_LANDING, 302)
  @Header('Cache-Control', 'no-store')
  async get(
    @Query(new ZodPipe(quickLoginQuerySchema)) query: QuickLoginChoice,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<void> {
    await this.cookies.signIn(request, reply, await this.auth.demoAccount(query));
  }
}
