import { Inject, Injectable } from '@nestjs/common';
import type { CookieSerializeOptions } from '@fastify/cookie';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { SESSION_COOKIE, TokenService } from '@district/nest-common';
import type { UserEntity } from '../users/user.entity';
import { sessionIsAdmin } from '../users/user.mapper';

/**
 * Issues session tokens into the session cookie: HttpOnly (scripts cannot read it), SameSite=Lax (not sent
 * on cross-site form posts), Secure whenever the request came over TLS, living as long as the token.
 */
@Injectable()
export class SessionCookies {
  constructor(@Inject(TokenService) private readonly tokens: TokenService) {}

  /** A sign-in: always a new session id, so a session id planted before sign-in is worthless after it. */
  signIn(request: FastifyRequest, reply: FastifyReply, user: UserEntity): Promise<void> {
    return this.issue(request, reply, user);
  }

  /** The sliding refresh at /me: same session and start, fresh claims and expiry (never past the session's end). */
  refresh(
    request: FastifyRequest,
    reply: FastifyReply,
    user: UserEntity,
    session: { sessionId: string; sessionStartedAt: number },
  ): Promise<void> {
    return this.issue(request, reply, user, session);
  }

  clear(request: FastifyRequest, reply: FastifyReply): void {
    reply.clearCookie(SESSION_COOKIE, cookieOptions(request));
  }

  private async issue(
    request: FastifyRequest,
    reply: FastifyReply,
    user: UserEntity,
    session?: { sessionId: string; sessionStartedAt: number },
  ): Promise<void> {
    const { token, expiresAt } = await this.tokens.sign({
      sub: user.id,
      sid: session?.sessionId,
      sst: session?.sessionStartedAt,
      tv: user.tokenVersion,
      role: user.role,
      approved: user.approved,
      isAdmin: sessionIsAdmin(user),
      name: user.name,
      username: user.username,
      email: user.email,
    });
    const maxAge = Math.max(1, Math.floor(expiresAt.getTime() / 1000) - Math.floor(Date.now() / 1000));
    reply.setCookie(SESSION_COOKIE, token, { ...cookieOptions(request), maxAge });
  }
}

/** request.protocol honours X-Forwarded-Proto from the gateway (trustProxy), so TLS at the edge counts. */
export function cookieOptions(request: FastifyRequest): CookieSerializeOptions {
  return { httpOnly: true, sameSite: 'lax', path: '/', secure: request.protocol === 'https' };
}
