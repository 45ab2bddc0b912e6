import { createParamDecorator, SetMetadata, type ExecutionContext } from '@nestjs/common';
import type { Role } from '@district/contracts';
import type { TokenState } from './session-state';
import type { VerifiedToken } from './token.service';

export const IS_PUBLIC = 'auth:public';
export const REQUIRE_APPROVAL = 'auth:approval';
export const REQUIRE_ADMIN = 'auth:admin';
export const REQUIRE_ROLES = 'auth:roles';
export const SIGN_IN_MESSAGE = 'auth:sign-in-message';

/** Every route needs a signed-in user unless marked @Public(). */
export const Public = () => SetMetadata(IS_PUBLIC, true);
/** The 401 text of a route (or controller) whose screen words it, e.g. 'Please log in to view quiz grades.' */
export const SignInMessage = (message: string) => SetMetadata(SIGN_IN_MESSAGE, message);
/** Signed in and approved by an admin. */
export const RequireApproval = () => SetMetadata(REQUIRE_APPROVAL, true);
/** isAdmin. */
export const RequireAdmin = () => SetMetadata(REQUIRE_ADMIN, true);

/** 'admin' stands for the isAdmin flag; the others are account roles. */
export type RoleRequirement = Role | 'admin';
export interface RoleRule {
  roles: RoleRequirement[];
  message: string;
}
/** e.g. @RequireRole(['teacher', 'admin'], 'Access denied. Admin or teacher privileges required.') */
export const RequireRole = (roles: RoleRequirement[], message: string) =>
  SetMetadata(REQUIRE_ROLES, { roles, message } satisfies RoleRule);

export interface AuthUser {
  id: string;
  role: Role;
  approved: boolean;
  isAdmin: boolean;
  name: string;
  username: string;
  email: string;
  tokenVersion: number;
  sessionId: string;
  /** Seconds since epoch when the session began (its absolute lifetime counts from here). */
  sessionStartedAt: number;
  /** Seconds since epoch when the token expires. */
  expiresAt: number;
}

/**
 * What the guard found in the request's session cookie: a well-signed token and its state in the shared
 * session store at that moment. Kept on the request so a handler that needs more than `user` (identity's /me
 * re-issues a stale token) decides from the same check instead of repeating it.
 */
export interface CheckedSession {
  claims: VerifiedToken;
  state: Exclude<TokenState, 'unknown'>;
}

export interface RequestWithUser {
  user?: AuthUser;
  /** Set by the guard whenever the cookie held a well-signed token, whatever its state. */
  session?: CheckedSession;
  method?: string;
  headers: Record<string, string | string[] | undefined>;
  cookies?: Record<string, string | undefined>;
  id?: string;
}

/** The signed-in user (undefined on public routes when nobody is signed in). */
export const CurrentUser = createParamDecorator(
  (_data: unknown, ctx: ExecutionContext): AuthUser | undefined => {
    return ctx.switchToHttp().getRequest<RequestWithUser>().user;
  },
);
