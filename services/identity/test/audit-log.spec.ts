import { randomUUID } from 'node:crypto';
import {
  auditRecord,
  PeopleDataSubjects,
  type AuditLogPage,
  type AuditRecordedEvent,
  type User,
} from '@district/contracts';
import type { HttpClient } from '@district/nest-common/testing';
import { startIdentity, type IdentityTestApp } from './support/identity-app';
import { ADMIN_ENV, registerPerson, signInAdmin } from './support/people';

/**
 * The audit log (ADR 0021) in identity: its own administrative actions written with the change, other
 * services' arriving as `<service>.audit.recorded.v1` events (recorded once), the admins' filtered and paged
 * read, and the table refusing any UPDATE, DELETE or TRUNCATE.
 */
jest.setTimeout(30_000);

let app: IdentityTestApp;
let admin: HttpClient;
let adminUser: User;

beforeAll(async () => {
  app = await startIdentity({ env: ADMIN_ENV });
  admin = await signInAdmin(app);
  adminUser = (await admin.get<User>('/api/auth/me')).body;
});
afterAll(async () => {
  await app?.close();
});

const log = async (query = '') => {
  const res = await admin.get<AuditLogPage>(`/api/admin/audit-log${query}`);
  expect(res.status).toBe(200);
  return res.body;
};

async function eventually<T>(probe: () => Promise<T | undefined>, timeoutMs = 5000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe('the audit log', () => {
  it('records every administrative action on a person: who, what, target, when, from where', async () => {
    const { user } = await registerPerson(app, admin, 'pending');
    const before = Date.now();
    const forwarded = { 'x-forwarded-for': '203.0.113.7' };
    const steps: Array<[string, string, unknown]> = [
      ['PATCH', 'approval', { approved: true }],
      ['PATCH', 'role', { role: 'teacher' }],
      ['PATCH', 'admin', { isAdmin: true }],
      ['PATCH', 'admin', { isAdmin: false }],
      ['PATCH', 'approval', { approved: false }],
      // A no-op changes nothing, so it is not an action taken.
      ['PATCH', 'approval', { approved: false }],
    ];
    for (const [, path, body] of steps)
      expect((await admin.patch(`/api/users/${user.id}/${path}`, body, { headers: forwarded })).status).toBe(
        200,
      );
    expect(
      (
        await admin.put(
          `/api/admin/users/${user.id}/password`,
          { newPassword: 'brand-new-pass-1' },
          { headers: forwarded },
        )
      ).status,
    ).toBe(200);
    expect((await admin.delete(`/api/users/${user.id}`, { headers: forwarded })).status).toBe(204);

    const page = await log(`?target=${user.id}`);
    expect(page.total).toBe(7);
    expect(page.entries.map((e) => e.action)).toEqual([
      'user.deleted',
      'user.password_reset',
      'user.suspended',
      'user.admin_revoked',
      'user.admin_granted',
      'user.role_changed',
      'user.approved',
    ]);
    for (const entry of page.entries) {
      expect(entry).toMatchObject({
        service: 'identity',
        actorId: adminUser.id,
        actorName: adminUser.name,
        targetType: 'user',
        targetId: user.id,
        targetLabel: user.name,
      });
      expect(Date.parse(entry.at)).toBeGreaterThanOrEqual(before - 1000);
      // From where: the address the (trusted) hop forwarded, or the peer's own.
      expect(entry.ip).toMatch(/^(203\.0\.113\.7|127\.0\.0\.1|::1|::ffff:127\.0\.0\.1)$/);
    }
    expect(page.entries.find((e) => e.action === 'user.role_changed')?.details).toEqual({ role: 'teacher' });
  });

  it('does not record a refused action', async () => {
    const total = (await log()).total;
    expect((await admin.delete(`/api/users/${adminUser.id}`)).status).toBe(403);
    expect((await admin.patch(`/api/users/${randomUUID()}/approval`, { approved: true })).status).toBe(404);
    expect((await log()).total).toBe(total);
  });

  it('records other services’ actions from their events, once each', async () => {
    const gradeId = randomUUID();
    const event: AuditRecordedEvent = {
      service: 'assessment',
      record: auditRecord(
        { actorId: adminUser.id, actorName: adminUser.name, ip: '198.51.100.2' },
        'grade.deleted',
        { type: 'grade', id: gradeId, label: 'Colores — Sam Student' },
      ),
    };
    const id = randomUUID();
    // The same event twice (a redelivery), and the same record under another service's subject.
    await app.runtime.bus.publish(PeopleDataSubjects.auditRecorded('assessment'), event, { id });
    await app.runtime.bus.publish(PeopleDataSubjects.auditRecorded('assessment'), event, {
      id: randomUUID(),
    });
    await app.runtime.bus.publish(PeopleDataSubjects.auditRecorded('assessment'), event, { id });
    const page = await eventually(async () => {
      const p = await log(`?target=${gradeId}`);
      return p.total >= 2 ? p : undefined;
    });
    await new Promise((r) => setTimeout(r, 300));
    expect((await log(`?target=${gradeId}`)).total).toBe(2);
    expect(page.entries[0]).toMatchObject({
      service: 'assessment',
      action: 'grade.deleted',
      actorId: adminUser.id,
      targetType: 'grade',
      targetLabel: 'Colores — Sam Student',
      ip: '198.51.100.2',
    });
    // An event out of contract is dropped, not recorded.
    await app.runtime.bus.publish(PeopleDataSubjects.auditRecorded('chat'), {
      service: 'chat',
      record: { action: 'chatroom.nuked' },
    });
    await new Promise((r) => setTimeout(r, 300));
    expect((await log('?action=chatroom.created')).total).toBe(0);
  });

  it('filters by actor, action, target and date range, and pages newest first', async () => {
    const people = await Promise.all([0, 1, 2].map(() => registerPerson(app, admin, 'pending')));
    for (const { user } of people)
      expect((await admin.patch(`/api/users/${user.id}/approval`, { approved: true })).status).toBe(200);
    const approved = await log(`?action=user.approved&actor=${adminUser.id}&pageSize=2`);
    expect(approved.pageSize).toBe(2);
    expect(approved.entries).toHaveLength(2);
    expect(approved.total).toBeGreaterThanOrEqual(people.length);
    const second = await log(`?action=user.approved&actor=${adminUser.id}&pageSize=2&page=2`);
    expect(second.entries[0].id).not.toBe(approved.entries[1].id);
    expect(Date.parse(second.entries[0].at)).toBeLessThanOrEqual(Date.parse(approved.entries[1].at));
    // The newest three approvals are these people's, newest first.
    const newest = await log(`?action=user.approved&pageSize=3`);
    expect(newest.entries.map((e) => e.targetId)).toEqual(people.map((p) => p.user.id).reverse());
    // By part of a name (actor or target), case-insensitively, and by a date range.
    expect(
      (await log(`?actor=${encodeURIComponent(adminUser.name.slice(1, 5).toUpperCase())}`)).total,
    ).toBeGreaterThan(0);
    expect((await log(`?actor=nobody-by-this-name`)).total).toBe(0);
    expect(
      (await log(`?target=${encodeURIComponent(people[0].user.name)}`)).entries.map((e) => e.targetId),
    ).toEqual([people[0].user.id]);
    expect((await log(`?actor=%25`)).total).toBe(0);
    const today = new Date().toISOString().slice(0, 10);
    expect((await log(`?from=${today}&to=${today}&action=user.approved`)).total).toBe(approved.total);
    expect((await log(`?to=2000-01-01`)).total).toBe(0);
    expect(
      (await log(`?from=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`)).total,
    ).toBe(0);
  });

  it('answers 400 with a message for a bad query', async () => {
    for (const query of [
      '?action=user.exploded',
      '?page=0',
      '?pageSize=201',
      '?pageSize=ten',
      '?from=yesterday',
      '?from=2026-02-02&to=2026-01-01',
      '?sort=asc',
      '?actor=%00',
      '?target=a%00b',
      `?target=${'x'.repeat(301)}`,
    ]) {
      const res = await admin.get<{ message: string }>(`/api/admin/audit-log${query}`);
      expect([query, res.status]).toEqual([query, 400]);
      expect(typeof res.body.message).toBe('string');
    }
  });

  it('keeps the log append-only: the table refuses UPDATE, DELETE and TRUNCATE', async () => {
    const table = `"${app.schema}".audit_log`;
    const [{ n }] = (await app.dataSource.query(`SELECT count(*)::int AS n FROM ${table}`)) as {
      n: number;
    }[];
    expect(n).toBeGreaterThan(0);
    for (const sql of [
      `UPDATE ${table} SET actor_name = 'someone else'`,
      `DELETE FROM ${table}`,
      `TRUNCATE ${table}`,
    ])
      await expect(app.dataSource.query(sql)).rejects.toThrow(/audit_log is append-only/);
    const [{ n: after }] = (await app.dataSource.query(`SELECT count(*)::int AS n FROM ${table}`)) as {
      n: number;
    }[];
    expect(after).toBe(n);
    // And no route changes or removes an entry.
    for (const method of ['delete', 'patch', 'put'] as const)
      expect((await admin[method]('/api/admin/audit-log', {})).status).toBe(404);
  });
});
