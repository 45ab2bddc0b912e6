import {
  ForbiddenException,
  HttpException,
  HttpStatus,
  Inject,
  Injectable,
  UnauthorizedException,
  type CanActivate,
  type ExecutionContext,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { IdentityMessages } from '@district/contracts';
import {
  IS_PUBLIC,
  REQUIRE_ADMIN,
  REQUIRE_APPROVAL,
  REQUIRE_ROLES,
  type AuthUser,
  type RequestWithUser,
  type RoleRule,
} from './decorators';
import { BusContext } from '../bus/transport/bus-context';
import { SESSION_COOKIE, TokenService } from './token.service';
import { SessionStateStore } from './session-state';

/**
 * The one guard every service runs on every route (APP_GUARD). It verifies the session token locally and
 * checks the shared token state, so a suspended, re-roled or deleted user is refused on the very next request.
 * The platform's bus handlers (`@EventPattern`/`@MessagePattern` run by `BusTransport`) pass; any other
 * context is refused.
 */
@Injectable()
export class AuthGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    @Inject(TokenService) private readonly tokens: TokenService,
    @Inject(SessionStateStore) private readonly sessions: SessionStateStore,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    // Bus handlers answer other services, not users: they pass, but only when the platform's bus transport
    // called them (it alone creates a BusContext), never through another RPC transport.
    if (context.getType() === 'rpc') return context.switchToRpc().getContext() instanceof BusContext;
    // Fail closed: a handler reached another way (WebSocket, …) has no cookie checked here, so it is refused
    // until its transport authenticates the caller on its own terms.
    if (context.getType() !== 'http') return false;
    const request = context.switchToHttp().getRequest<RequestWithUser>();
    const targets = [context.getHandler(), context.getClass()];
    const isPublic = this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, targets) ?? false;
    request.user = (await this.authenticate(request)) ?? undefined;
    if (isPublic) return true;
    const user = request.user;
    if (!user) throw new UnauthorizedException(IdentityMessages.authenticationRequired);
    if (this.reflector.getAllAndOverride<boolean>(REQUIRE_APPROVAL, targets) && !user.approved) {
      throw new ForbiddenException(IdentityMessages.accountPendingApproval);
    }
    if (this.reflector.getAllAndOverride<boolean>(REQUIRE_ADMIN, targets) && !holdsRight(user, 'admin')) {
      throw new ForbiddenException(IdentityMessages.adminRequired);
    }
    const rule = this.reflector.getAllAndOverride<RoleRule | undefined>(REQUIRE_ROLES, targets);
    if (rule && !rule.roles.some((r) => holdsRight(user, r))) {
      throw new ForbiddenException(rule.message);
    }
    return true;
  }

  private async authenticate(request: RequestWithUser): Promise<AuthUser | null> {
    const claims = await this.tokens.verify(request.cookies?.[SESSION_COOKIE]);
    if (!claims) return null;
    const id = claims.sub.toLowerCase();
    const state = await this.sessions.check(id, claims.tv, claims.sid);
    if (state === 'unknown') throw new SessionStateUnavailableException();
    request.session = { claims, state };
    if (state !== 'valid') return null;
    return {
      id,
      role: claims.role,
      approved: claims.approved,
      // What every service reads as "is an administrator": the flag counts only on an approved account.
      isAdmin: holdsRight(claims, 'admin'),
      name: claims.name,
      username: claims.username,
      email: claims.email,
      tokenVersion: claims.tv,
      sessionId: claims.sid,
      sessionStartedAt: claims.sst,
      expiresAt: claims.exp,
    };
  }
}

/**
 * Admin and teacher rights need an approved account: an unapproved one (pending, or suspended by an admin)
 * holds only what any signed-in student holds (ADR 0011).
 */
export function holdsRight(user: Pick<AuthUser, 'role' | 'approved' | 'isAdmin'>, right: RoleRule['roles'][number]): boolean {
  if (right === 'admin') return user.isAdmin && user.approved;
  if (right === 'teacher') return user.role === 'teacher' && user.approved;
  return user.role === right;
}

/** The shared session state was lost and is being restored: nothing can be decided, so ask the client to retry. */
export class SessionStateUnavailableException extends HttpException {
  constructor() {
    super(
      { statusCode: HttpStatus.SERVICE_UNAVAILABLE, message: 'Sign-in state is being restored. Please try again in a moment.', retryAfter: 1 },
      HttpStatus.SERVICE_UNAVAILABLE,
    );
  }
}
