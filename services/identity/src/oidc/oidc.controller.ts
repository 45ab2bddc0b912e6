import { Controller, Get, Inject, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Public } from '@district/nest-common';
import { cookieOptions, SessionCookies } from '../auth/session-cookies.service';
import {
  OidcEmailRequiredError,
  OidcFailedError,
  OidcNotConfiguredError,
  OidcUnavailableError,
} from './oidc.errors';
import { OidcSignInService, PENDING_SIGN_IN_SECONDS } from './oidc-sign-in.service';
import { signInPage } from './oidc-page';

/** Holds the pending sign-in's id; sent only to the callback (Lax: it comes back on the provider's redirect). */
export const OIDC_PENDING_COOKIE = 'district_oidc';
const PENDING_COOKIE_PATH = '/api/auth/google';
const AFTER_SIGN_IN = '/';

/** HTTP status of each page; anything else is unexpected and left to the platform's error filter. */
const PAGE_STATUS = new Map<new () => Error, number>([
  [OidcNotConfiguredError, 501],
  [OidcUnavailableError, 503],
  [OidcFailedError, 400],
  [OidcEmailRequiredError, 403],
]);

/**
 * The third-party sign-in link (spec: GET /api/auth/google): sends the browser to the OpenID provider and
 * signs it in when it comes back. A browser navigates here, so failures are pages, not JSON.
 */
@Controller('api/auth/google')
@Public()
export class OidcController {
  constructor(
    @Inject(OidcSignInService) private readonly signIn: OidcSignInService,
    @Inject(SessionCookies) private readonly cookies: SessionCookies,
  ) {}

  @Get()
  async start(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    try {
      if (!this.signIn.enabled) throw new OidcNotConfiguredError();
      const { redirectTo, pendingId } = await this.signIn.begin();
      reply.setCookie(OIDC_PENDING_COOKIE, pendingId, {
        ...cookieOptions(request),
        path: PENDING_COOKIE_PATH,
        maxAge: PENDING_SIGN_IN_SECONDS,
      });
      noStore(reply).redirect(redirectTo.href, 302);
    } catch (error) {
      sendPage(reply, error);
    }
  }

  @Get('callback')
  async callback(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    try {
      if (!this.signIn.enabled) throw new OidcNotConfiguredError();
      reply.clearCookie(OIDC_PENDING_COOKIE, { ...cookieOptions(request), path: PENDING_COOKIE_PATH });
      const search = new URL(request.url, 'http://callback.invalid').search;
      const user = await this.signIn.finish(request.cookies[OIDC_PENDING_COOKIE], search);
      await this.cookies.signIn(request, reply, user);
      noStore(reply).redirect(AFTER_SIGN_IN, 302);
    } catch (error) {
      sendPage(reply, error);
    }
  }
}

function noStore(reply: FastifyReply): FastifyReply {
  return reply.header('Cache-Control', 'no-store');
}

function sendPage(reply: FastifyReply, error: unknown): void {
  const status = error instanceof Error ? PAGE_STATUS.get(error.constructor as new () => Error) : undefined;
  if (status === undefined) throw error;
  noStore(reply)
    .status(status)
    .header('Content-Type', 'text/html; charset=utf-8')
    .header('Content-Security-Policy', "default-src 'none'")
    .send(signInPage((error as Error).message));
}
