import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
  type ReactNode,
} from 'react';
import type { LoginRequest, RegisterRequest, User } from '@district/contracts/identity';
import { api, ApiError } from '@/lib/api-client';
import { loadUserSchema, parseUser } from '@/lib/user-guard';
import { USER_STORAGE_KEY, USER_UPDATED_EVENT } from '@/config/constants';

export type { User };

export interface Session {
  /** The signed-in user, or null for a visitor. */
  user: User | null;
  /** True only while the first GET /api/auth/me is in flight (the app shows a full-page spinner). */
  loading: boolean;
  login(credentials: LoginRequest): Promise<User>;
  register(payload: RegisterRequest): Promise<User>;
  logout(): Promise<void>;
  /** Re-reads the user from the server (same rules as at start). */
  refresh(): Promise<User | null>;
}

const SessionContext = createContext<Session | null>(null);

/** Module-level copy so non-React code (and other features) can read who is signed in. */
let currentUser: User | null = null;
export function getCurrentUser(): User | null {
  return currentUser;
}

function readStoredUser(): User | null {
  let raw: string | null;
  try {
    raw = window.localStorage.getItem(USER_STORAGE_KEY);
  } catch {
    return null;
  }
  if (raw === null) return null;
  try {
    const parsed = parseUser(JSON.parse(raw));
    if (parsed) return parsed;
  } catch {
    // Not JSON: treated as invalid below.
  }
  // Spec section 4: an invalid stored copy is removed.
  window.localStorage.removeItem(USER_STORAGE_KEY);
  return null;
}

function writeStoredUser(user: User | null): void {
  try {
    if (user) window.localStorage.setItem(USER_STORAGE_KEY, JSON.stringify(user));
    else window.localStorage.removeItem(USER_STORAGE_KEY);
  } catch {
    // Storage can be unavailable (private mode, quota); the in-memory session still works.
  }
}

/** Tells the rest of the page (including code outside React) that the user changed. */
function announce(user: User | null): void {
  window.dispatchEvent(new CustomEvent(USER_UPDATED_EVENT, { detail: user }));
}

type MeResult = { kind: 'user'; user: User } | { kind: 'failed' } | { kind: 'invalid' };

/** GET /api/auth/me, classified the way spec section 4 needs it. */
async function fetchMe(): Promise<MeResult> {
  let res: Response;
  try {
    res = await fetch('/api/auth/me', {
      credentials: 'include',
      cache: 'no-store',
      headers: { Accept: 'application/json', 'Cache-Control': 'no-cache' },
    });
  } catch {
    return { kind: 'failed' };
  }
  if (!res.ok) return { kind: 'failed' };
  let body: unknown;
  try {
    body = await res.json();
  } catch {
    return { kind: 'invalid' };
  }
  // The contract's userSchema, checked without zod: the session decides the first paint (ADR 0023).
  const user = parseUser(body);
  return user ? { kind: 'user', user } : { kind: 'invalid' };
}

export function SessionProvider({ children }: { children: ReactNode }) {
  const [user, setUserState] = useState<User | null>(null);
  const [loading, setLoading] = useState(true);
  const mounted = useRef(true);

  const setUser = useCallback((next: User | null) => {
    currentUser = next;
    if (mounted.current) setUserState(next);
  }, []);

  const resolve = useCallback(async (): Promise<User | null> => {
    const result = await fetchMe();
    if (result.kind === 'user') {
      writeStoredUser(result.user);
      setUser(result.user);
      return result.user;
    }
    if (result.kind === 'invalid') {
      // An unreadable answer counts as not authenticated, and a stale copy must not revive the session.
      writeStoredUser(null);
      setUser(null);
      return null;
    }
    // The server could not confirm the session: fall back to a valid stored copy (readStoredUser drops an invalid one).
    const stored = readStoredUser();
    setUser(stored);
    return stored;
  }, [setUser]);

  useEffect(() => {
    mounted.current = true;
    let cancelled = false;
    void resolve().finally(() => {
      if (!cancelled) setLoading(false);
    });
    return () => {
      cancelled = true;
      mounted.current = false;
    };
  }, [resolve]);

  useEffect(() => {
    const onUserUpdated = (event: Event) => {
      const detail = (event as CustomEvent<unknown>).detail;
      if (detail === null) {
        writeStoredUser(null);
        setUser(null);
        return;
      }
      const parsed = parseUser(detail);
      if (!parsed) return;
      writeStoredUser(parsed);
      setUser(parsed);
    };
    window.addEventListener(USER_UPDATED_EVENT, onUserUpdated);
    return () => window.removeEventListener(USER_UPDATED_EVENT, onUserUpdated);
  }, [setUser]);

  const signedIn = useCallback(
    (next: User) => {
      writeStoredUser(next);
      setUser(next);
      announce(next);
      return next;
    },
    [setUser],
  );

  const login = useCallback(
    async (credentials: LoginRequest) =>
      signedIn(await api.post('/api/auth/login', credentials, { schema: loadUserSchema })),
    [signedIn],
  );

  const register = useCallback(
    async (payload: RegisterRequest) =>
      signedIn(await api.post('/api/auth/register', payload, { schema: loadUserSchema })),
    [signedIn],
  );

  const logout = useCallback(async () => {
    try {
      await api.post('/api/auth/logout');
    } catch (err) {
      // The local session is cleared regardless; the cookie expires on its own if the call failed.
      if (!(err instanceof ApiError)) throw err;
    } finally {
      writeStoredUser(null);
      setUser(null);
      announce(null);
    }
  }, [setUser]);

  const value = useMemo<Session>(
    () => ({ user, loading, login, register, logout, refresh: resolve }),
    [user, loading, login, register, logout, resolve],
  );

  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession must be used inside <SessionProvider>');
  return session;
}

/** Convenience predicates shared by guards, the navbar and features. */
export const isApproved = (user: User | null): boolean => Boolean(user?.approved);
export const isAdmin = (user: User | null): boolean => Boolean(user?.isAdmin);
export const isTeacherOrAdmin = (user: User | null): boolean =>
  Boolean(user && (user.isAdmin || user.role === 'teacher'));
