import {
  ForbiddenException,
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
import { SESSION_COOKIE, TokenService } from './token.service';
import { SessionStateStore } from './session-state';

/**
 * The one guard every service runs on every route (APP_GUARD). It verifies the session token locally and
 * checks the shared token state, so a suspended, re-roled or deleted user is refused on the very next request.
 */
@Injectable()
export class AuthGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    @Inject(TokenService) private readonly tokens: TokenService,
    @Inject(SessionStateStore) private readonly sessions: SessionStateStore,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (context.getType() !== 'http') return true;
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
    if (this.reflector.getAllAndOverride<boolean>(REQUIRE_ADMIN, targets) && !user.isAdmin) {
      throw new ForbiddenException(IdentityMessages.adminRequired);
    }
    const rule = this.reflector.getAllAndOverride<RoleRule | undefined>(REQUIRE_ROLES, targets);
    if (rule && !rule.roles.some((r) => (r === 'admin' ? user.isAdmin : user.role === r))) {
      throw new ForbiddenException(rule.message);
    }
    return true;
  }

  private async authenticate(request: RequestWithUser): Promise<AuthUser | null> {
    const claims = await this.tokens.verify(request.cookies?.[SESSION_COOKIE]);
    if (!claims) return null;
    const state = await this.sessions.check(claims.sub, claims.tv, claims.sid);
    if (state !== 'valid') return null;
    return {
      id: claims.sub,
      role: claims.role,
      approved: claims.approved,
      isAdmin: claims.isAdmin,
      name: claims.name,
      username: claims.username,
      email: claims.email,
      tokenVersion: claims.tv,
      sessionId: claims.sid,
      expiresAt: claims.exp,
    };
  }
}
