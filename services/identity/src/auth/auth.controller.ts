import {
  Body,
  Controller,
  Get,
  Header,
  HttpCode,
  Inject,
  Post,
  Req,
  Res,
  UnauthorizedException,
  UseInterceptors,
} from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  IdentityMessages,
  loginRequestSchema,
  registerRequestSchema,
  type LoginRequest,
  type User,
} from '@district/contracts';
import { Public, SESSION_COOKIE, ZodPipe, type RequestWithUser } from '@district/nest-common';
import { IdentityErrorsInterceptor } from '../identity-errors.interceptor';
import { toSessionUser } from '../users/user.mapper';
import { AuthService, type RegisterInput } from './auth.service';
import { SessionCookies } from './session-cookies.service';

/** Password sign-in, registration, sign-out and the session check (spec §7). No answer here is cached. */
@Controller('api/auth')
@Public()
@UseInterceptors(IdentityErrorsInterceptor)
export class AuthController {
  constructor(
    @Inject(AuthService) private readonly auth: AuthService,
    @Inject(SessionCookies) private readonly cookies: SessionCookies,
  ) {}

  @Post('login')
  @HttpCode(200)
  @Header('Cache-Control', 'no-store')
  async login(
    @Body(new ZodPipe(loginRequestSchema)) body: LoginRequest,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<User> {
    const user = await this.auth.login(body, request.ip);
    await this.cookies.signIn(request, reply, user);
    return toSessionUser(user);
  }

  @Post('register')
  @HttpCode(201)
  @Header('Cache-Control', 'no-store')
  async register(
    @Body(new ZodPipe(registerRequestSchema)) body: RegisterInput,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<User> {
    const user = await this.auth.register(body, request.ip);
    await this.cookies.signIn(request, reply, user);
    return toSessionUser(user);
  }

  /** Succeeds with or without a session, so a client can always reset itself. */
  @Post('logout')
  @HttpCode(204)
  @Header('Cache-Control', 'no-store')
  async logout(
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<void> {
    await this.auth.logout(request.cookies[SESSION_COOKIE]);
    this.cookies.clear(request, reply);
  }

  /**
   * Who is signed in. The token is re-issued when it no longer matches the user (approval, role…) or is over
   * ten minutes old (sliding session); otherwise 401 and the cookie cleared.
   */
  @Get('me')
  @Header('Cache-Control', 'no-store')
  async me(@Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<User> {
    const session = await this.auth.resume((request as RequestWithUser).session);
    if (!session) {
      this.cookies.clear(request, reply);
      throw new UnauthorizedException(IdentityMessages.authenticationRequired);
    }
    if (session.needsNewToken) await this.cookies.refresh(request, reply, session.user, session);
    return toSessionUser(session.user);
  }
}
