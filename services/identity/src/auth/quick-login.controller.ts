import {
  Body,
  Controller,
  ForbiddenException,
  Get,
  Header,
  HttpCode,
  Inject,
  Post,
  Query,
  Req,
  Res,
  UseGuards,
  UseInterceptors,
} from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { IdentityMessages, quickLoginRequestSchema, type User } from '@district/contracts';
import { AcceptsForm, Public, ZodPipe, isCrossSite } from '@district/nest-common';
import { IdentityErrorsInterceptor } from '../identity-errors.interceptor';
import { toSessionUser } from '../users/user.mapper';
import { AuthService, type QuickLoginChoice } from './auth.service';
import { DemoOnlyGuard } from './demo-only.guard';
import { quickLoginPage } from './quick-login-page';
import { SessionCookies } from './session-cookies.service';

/** Where the confirmed shortcut lands: the chat room, whose screen links to the shortcut (spec). */
export const QUICK_LOGIN_LANDING = '/listen-to-type';

/**
 * Demo shortcuts: sign in as a seeded demo teacher or student without a password, on demo sites only, never as
 * an administrator. The GET (the chat screen's links) only asks; the sign-in is a same-origin POST.
 */
@Controller('api/auth/quick-login')
@Public()
@UseGuards(DemoOnlyGuard)
@UseInterceptors(IdentityErrorsInterceptor)
export class QuickLoginController {
  constructor(
    @Inject(AuthService) private readonly auth: AuthService,
    @Inject(SessionCookies) private readonly cookies: SessionCookies,
  ) {}

  /** JSON from the app (answers the user), or the confirmation page's form (goes on to the chat room). */
  @Post()
  @AcceptsForm()
  @HttpCode(200)
  @Header('Cache-Control', 'no-store')
  async post(
    @Body(new ZodPipe(quickLoginRequestSchema)) body: QuickLoginChoice,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<User | undefined> {
    // The gateway checks Origin; a browser's own word on where the request comes from is checked here too.
    if (isCrossSite(request.headers)) throw new ForbiddenException(IdentityMessages.crossSiteRefused);
    const user = await this.auth.demoAccount(body);
    await this.cookies.signIn(request, reply, user);
    if (isForm(request)) {
      void reply.redirect(QUICK_LOGIN_LANDING, 303);
      return undefined;
    }
    return toSessionUser(user);
  }

  @Get()
  @Header('Cache-Control', 'no-store')
  confirm(
    @Query(new ZodPipe(quickLoginRequestSchema.pick({ type: true }))) query: QuickLoginChoice,
    @Res() reply: FastifyReply,
  ): void {
    void reply
      .status(200)
      .header('Content-Type', 'text/html; charset=utf-8')
      .send(quickLoginPage(query.type ?? 'teacher'));
  }
}

function isForm(request: FastifyRequest): boolean {
  return (request.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded');
}
