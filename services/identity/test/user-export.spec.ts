import { randomUUID } from 'node:crypto';
import { type User, type UserExportReply } from '@district/contracts';
import type { BusSubscription } from '@district/nest-common';
import type { HttpClient } from '@district/nest-common/testing';
import { exportUnavailableMessage } from '../src/identity.errors';
import { USER_EXPORT_TIMEOUT_MS } from '../src/admin/user-export.service';
import {
  EXPORTING_SERVICES as USER_EXPORT_SERVICES,
  startIdentity,
  type IdentityTestApp,
} from './support/identity-app';
import { ADMIN_ENV, registerPerson, signInAdmin } from './support/people';

/**
 * The right of access (ADR 0021) on identity alone: the other services are stand-ins answering on the in-process
 * bus, so what is checked here is identity's part — its own record without secrets, the assembly of the parts,
 * the contract check, and the 503 naming whoever did not answer. The real services' handlers answer in
 * launcher/test/user-export.spec.ts (in-process) and launcher/test/user-deletion.spec.ts (NATS).
 */
jest.setTimeout(30_000);

let app: IdentityTestApp;
let admin: HttpClient;
/** How each stand-in answers: its part, an out-of-contract answer, or never. */
const behaviour = new Map<string, 'answer' | 'garbage' | 'silent'>();
const asked: Array<{ service: string; userId: string }> = [];
const subscriptions: BusSubscription[] = [];
interface ExportFile {
  format: string;
  exportedAt: string;
  userId: string;
  services: { identity: { user: User; externalIdentities: unknown[] } } & Record<string, unknown>;
}

beforeAll(async () => {
  app = await startIdentity({ env: ADMIN_ENV });
  admin = await signInAdmin(app);
});
afterAll(async () => {
  for (const s of subscriptions) await s.unsubscribe();
  await app?.close();
});

async function standIns(services: readonly string[]): Promise<void> {
  for (const s of subscriptions.splice(0)) await s.unsubscribe();
  for (const service of services)
    subscriptions.push(
      await app.runtime.bus.reply<{ userId: string }, unknown>(
        `${service}.user.export.v1`,
        async ({ userId }) => {
          asked.push({ service, userId });
          const how = behaviour.get(service) ?? 'answer';
          if (how === 'silent') await new Promise((r) => setTimeout(r, USER_EXPORT_TIMEOUT_MS + 1_000));
          if (how === 'garbage') return { service, sections: 'everything' };
          return {
            service,
            sections: { rows: [{ owner: userId, from: service }] },
          } satisfies UserExportReply;
        },
        service,
      ),
    );
}

describe('GET /api/admin/users/:id/export', () => {
  beforeEach(() => {
    behaviour.clear();
    asked.length = 0;
  });

  it('answers one JSON attachment: identity’s record without secrets and every service’s part', async () => {
    await standIns(USER_EXPORT_SERVICES);
    const { user } = await registerPerson(app, admin, 'teacher');
    const res = await admin.get<ExportFile>(`/api/admin/users/${user.id.toUpperCase()}/export`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="user-${user.id}-export.json"`);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.body).toMatchObject({ format: 'district-user-export/v1', userId: user.id });
    expect(Date.parse(res.body.exportedAt)).not.toBeNaN();
    const identity = res.body.services.identity;
    expect(identity.user).toMatchObject<Partial<User>>({
      id: user.id,
      name: user.name,
      email: user.email,
      username: user.username,
      role: 'teacher',
      approved: true,
    });
    expect(identity.externalIdentities).toEqual([]);
    // No password hash, no session bookkeeping, anywhere in the file.
    expect(res.text).not.toMatch(/password|\$argon2|\$2[aby]\$|tokenVersion|sessionsValidFrom/i);
    for (const service of USER_EXPORT_SERVICES)
      expect(res.body.services[service]).toEqual({ rows: [{ owner: user.id, from: service }] });
    // Asked once each, with the canonical id.
    expect(asked.map((a) => a.service).sort()).toEqual([...USER_EXPORT_SERVICES].sort());
    expect(new Set(asked.map((a) => a.userId))).toEqual(new Set([user.id]));
  });

  it('answers 404 for an unknown or malformed id without asking anyone', async () => {
    await standIns(USER_EXPORT_SERVICES);
    for (const id of [randomUUID(), 'not-a-uuid']) {
      const res = await admin.get(`/api/admin/users/${id}/export`);
      expect([res.status, res.body]).toEqual([404, expect.objectContaining({ message: 'User not found' })]);
    }
    expect(asked).toEqual([]);
  });

  it('answers 503 naming every service that did not answer, or answered out of contract', async () => {
    const { user } = await registerPerson(app, admin, 'student');
    // classroom is not running at all; chat answers garbage.
    await standIns(['content', 'chat', 'assessment']);
    behaviour.set('chat', 'garbage');
    const res = await admin.get(`/api/admin/users/${user.id}/export`);
    expect(res.status).toBe(503);
    expect(res.body).toMatchObject({
      message: exportUnavailableMessage(['chat', 'classroom']),
      statusCode: 503,
    });
    expect(res.headers.get('content-disposition')).toBeNull();
  });

  it('gives up on a service that stays silent after the timeout, and names it', async () => {
    const { user } = await registerPerson(app, admin, 'student');
    await standIns(USER_EXPORT_SERVICES);
    behaviour.set('assessment', 'silent');
    const started = Date.now();
    const res = await admin.get(`/api/admin/users/${user.id}/export`);
    expect(res.status).toBe(503);
    expect((res.body as { message: string }).message).toBe(exportUnavailableMessage(['assessment']));
    expect(Date.now() - started).toBeGreaterThanOrEqual(USER_EXPORT_TIMEOUT_MS - 100);
    expect(Date.now() - started).toBeLessThan(USER_EXPORT_TIMEOUT_MS + 3_000);
  });
});
