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
  SIGN_IN_MESSAGE,
  type AuthUser,
  type RequestWithUser,
  type RoleRule,
} from './decorators';
import { BusContext } from '../bus/transport/bus-context';
import { SESSION_COOKIE, TokenService } from './token.service';
import { SessionStateStore, type TokenState } from './session-state';

/** Requests that change nothing: the only ones decided without the shared session state (ADR 0022). */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * The one guard every service runs on every route (APP_GUARD). It verifies the session token locally and
 * checks the shared token state, so a suspended, re-roled or deleted user is refused on the very next request.
 * The platform's bus handlers (`@EventPattern`/`@MessagePattern` run by `BusTransport`) pass; any other
 * context is refused.
 */
/** The authorisation a route's decorators declare (@Public, @RequireApproval, @RequireAdmin, @RequireRoles). */
interface RouteRules {
  isPublic: boolean;
  requireApproval: boolean;
  requireAdmin: boolean;
  roles: RoleRule | undefined;
  signInMessage: string;
}

@Injectable()
export class AuthGuard implements CanActivate {
  /** By controller class, then handler: an inherited handler can serve two classes with different decorators. */
  private readonly rules = new WeakMap<object, WeakMap<object, RouteRules>>();

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
    const rules = this.rulesOf(context);
    request.user = (await this.authenticate(request)) ?? undefined;
    if (rules.isPublic) return true;
    const user = request.user;
    if (!user) throw new UnauthorizedException(rules.signInMessage);
    if (rules.requireApproval && !user.approved) {
      throw new ForbiddenException(IdentityMessages.accountPendingApproval);
    }
    if (rules.requireAdmin && !holdsRight(user, 'admin')) {
      throw new ForbiddenException(IdentityMessages.adminRequired);
    }
    const rule = rules.roles;
    if (rule && !rule.roles.some((r) => holdsRight(user, r))) {
      throw new ForbiddenException(rule.message);
    }
    return true;
  }

  /**
   * What a route's decorators ask for, read from its metadata once per handler: decorators are fixed when the
   * module loads, and four metadata lookups on every request were a visible part of a small route's cost.
   */
  private rulesOf(context: ExecutionContext): RouteRules {
    const handler = context.getHandler();
    const controller = context.getClass();
    let byHandler = this.rules.get(controller);
    if (!byHandler) {
      byHandler = new WeakMap();
      this.rules.set(controller, byHandler);
    }
    let rules = byHandler.get(handler);
    if (!rules) {
      const targets = [handler, controller];
      rules = {
        isPublic: this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, targets) ?? false,
        requireApproval: this.reflector.getAllAndOverride<boolean>(REQUIRE_APPROVAL, targets) ?? false,
        requireAdmin: this.reflector.getAllAndOverride<boolean>(REQUIRE_ADMIN, targets) ?? false,
        roles: this.reflector.getAllAndOverride<RoleRule | undefined>(REQUIRE_ROLES, targets),
        signInMessage:
          this.reflector.getAllAndOverride<string | undefined>(SIGN_IN_MESSAGE, targets) ??
          IdentityMessages.authenticationRequired,
      };
      byHandler.set(handler, rules);
    }
    return rules;
  }

  private async authenticate(request: RequestWithUser): Promise<AuthUser | null> {
    const claims = await this.tokens.verify(request.cookies?.[SESSION_COOKIE]);
    if (!claims) return null;
    const id = claims.sub.toLowerCase();
    let state: TokenState;
    let unreachable = false;
    try {
      state = await this.sessions.check(id, claims.tv, claims.sid);
    } catch {
      state = 'unknown';
      unreachable = true;
    }
    if (state === 'unknown') {
      // The shared store cannot say whether the token still counts: it is unreachable, or it lost its state and
      // identity has not restored it yet (ADR 0022). A read is decided from the signed token alone — it was valid
      // when signed and has not expired — so lessons, quizzes and grades stay readable through a Redis outage;
      // anything that changes state fails closed with 503 and the client retries.
      if (!SAFE_METHODS.has(request.method ?? '')) throw new SessionStateUnavailableException(unreachable);
      state = 'valid';
    }
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
export function holdsRight(
  user: Pick<AuthUser, 'role' | 'approved' | 'isAdmin'>,
  right: RoleRule['roles'][number],
): boolean {
  if (right === 'admin') return user.isAdmin && user.approved;
  if (right === 'teacher') return user.role === 'teacher' && user.approved;
  return user.role === right;
}

export const SESSION_STATE_MESSAGES = {
  restoring: 'Sign-in state is being restored. Please try again in a moment.',
  unreachable: 'Sign-in cannot be checked right now. Please try again in a moment.',
} as const;

/**
 * The shared session state is lost and being restored, or cannot be reached: a change cannot be authorised, so
 * the client is asked to retry.
 */
export class SessionStateUnavailableException extends HttpException {
  constructor(unreachable = false) {
    super(
      {
        statusCode: HttpStatus.SERVICE_UNAVAILABLE,
        message: unreachable ? SESSION_STATE_MESSAGES.unreachable : SESSION_STATE_MESSAGES.restoring,
        retryAfter: 1,
      },
      HttpStatus.SERVICE_UNAVAILABLE,
    );
  }
}
