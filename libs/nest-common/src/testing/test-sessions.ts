import { randomUUID } from 'node:crypto';
import type { Role } from '@district/contracts';
import { SessionStateStore } from '../auth/session-state';
import { SESSION_COOKIE, TokenService } from '../auth/token.service';
import type { PlatformRuntime } from '../runtime/runtime';
import type { HttpClient } from './http-client';

/** The kinds of people every service's tests speak of: no account, not approved, and the approved kinds. */
export const PERSONAS = ['anonymous', 'pending', 'student', 'teacher', 'admin'] as const;
export type Persona = (typeof PERSONAS)[number];

export interface TestPerson {
  id: string;
  name: string;
  persona: Persona;
}

/**
 * Claims that differ from the persona's: a self-registered teacher not yet approved, or an admin flag on an
 * unapproved account (a suspended admin holding an old token, ADR 0011).
 */
export interface TokenOverrides {
  role?: Role;
  approved?: boolean;
  isAdmin?: boolean;
}

let counter = 0;

/**
 * Signs people in for a service's tests without identity: a token signed with the runtime's keys and the
 * claims identity puts in one, in the session cookie, and identity's part of the shared session state — the
 * restored marker (written once, by `open`) and each person's token version — so the platform guard of any
 * service accepts it (ADR 0011: a missing entry is never valid).
 */
export class TestSessions {
  private readonly tokens: TokenService;
  private readonly state: SessionStateStore;

  private constructor(runtime: Pick<PlatformRuntime, 'keys' | 'store'>) {
    this.tokens = new TokenService(runtime.keys);
    this.state = new SessionStateStore(runtime.store);
  }

  /** Marks the runtime's store as restored, as identity does at start once every version is written. */
  static async open(runtime: Pick<PlatformRuntime, 'keys' | 'store'>): Promise<TestSessions> {
    const sessions = new TestSessions(runtime);
    await sessions.state.markRestored();
    return sessions;
  }

  /** A new person of that kind and their session token (none for anonymous), with its version recorded. */
  async sign(
    persona: Persona,
    overrides: Partial<TestPerson> & TokenOverrides = {},
  ): Promise<{ person: TestPerson; token: string | undefined }> {
    counter++;
    const person: TestPerson = {
      id: overrides.id ?? randomUUID(),
      name: overrides.name ?? `${persona} ${counter}`,
      persona,
    };
    if (persona === 'anonymous') return { person, token: undefined };
    const { token } = await this.tokens.sign({
      sub: person.id,
      tv: 1,
      role: overrides.role ?? (persona === 'teacher' || persona === 'admin' ? 'teacher' : 'student'),
      approved: overrides.approved ?? persona !== 'pending',
      isAdmin: overrides.isAdmin ?? persona === 'admin',
      name: person.name,
      username: `user${counter}`,
      email: `user${counter}@school.test`,
    });
    await this.state.setVersion(person.id, 1);
    return { person, token };
  }

  /** Signs a new person of that kind in on `client` (its cookie jar gets the session cookie). */
  async signIn(
    client: HttpClient,
    persona: Persona,
    overrides: Partial<TestPerson> & TokenOverrides = {},
  ): Promise<TestPerson> {
    const { person, token } = await this.sign(persona, overrides);
    if (token) client.jar.set(client.baseUrl, SESSION_COOKIE, token);
    return person;
  }
}
