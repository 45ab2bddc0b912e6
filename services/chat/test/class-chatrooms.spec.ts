import { randomUUID } from 'node:crypto';
import {
  ChatCloseCodes,
  ChatMessages,
  chatroomListSchema,
  chatroomSchema,
  IdentityMessages,
  type Chatroom,
} from '@district/contracts';
import { waitFor } from '@district/nest-common/testing';
import { publishClass, publishSchool } from '@district/nest-common/testing';
import { liveBench, type LivePerson } from './support/live-bench';

/**
 * Class chatrooms (issue #36): a room for a class, made by the class's teachers, its school's administrators or a
 * district administrator, invited by the class roster as chat's projection holds it, following every snapshot.
 */
jest.setTimeout(60_000);

const live = liveBench();
const { person, open } = live;

const schoolA = randomUUID();
const schoolB = randomUUID();
const classA = randomUUID();
const classB = randomUUID();
let teacherA: LivePerson;
let teacherB: LivePerson;
let adminOfA: LivePerson;
let adminOfB: LivePerson;
let pupil: LivePerson;
let newcomer: LivePerson;

beforeAll(async () => {
  teacherA = await person('teacher');
  teacherB = await person('teacher');
  adminOfA = await person('teacher');
  adminOfB = await person('teacher');
  pupil = await person('student');
  newcomer = await person('student');
  await publishSchool(live.app, schoolA, [adminOfA.id]);
  await publishSchool(live.app, schoolB, [adminOfB.id]);
  await publishClass(live.app, {
    classId: classA,
    schoolId: schoolA,
    title: 'Spanish 1 - Period 2',
    teacherIds: [teacherA.id.toUpperCase()],
    studentIds: [pupil.id],
  });
  await publishClass(live.app, {
    classId: classB,
    schoolId: schoolB,
    teacherIds: [teacherB.id],
    studentIds: [],
  });
});

async function classRoom(by: LivePerson, classId = classA): Promise<Chatroom> {
  const res = await by.client.post<Chatroom>('/api/admin/chatrooms', {
    name: `Class room ${randomUUID().slice(0, 6)}`,
    classId: classId.toUpperCase(),
  });
  if (res.status !== 201) throw new Error(`class room: ${res.status} ${res.text}`);
  return chatroomSchema.parse(res.body);
}

async function invitedOf(roomId: string): Promise<string[]> {
  const res = await live.admin.get<Chatroom[]>('/api/admin/chatrooms');
  return res.body.find((r) => r.id === roomId)?.invitedUserIds ?? [];
}

describe('making a class chatroom', () => {
  it('lets the class’s teacher make one, invited by the class roster, with the class and its title', async () => {
    const room = await classRoom(teacherA);
    expect(room).toMatchObject({
      classId: classA,
      classTitle: 'Spanish 1 - Period 2',
      invitedUserIds: [teacherA.id, pupil.id],
      isActive: true,
    });
  });

  it('refuses a teacher of another class, a student and a teacher without a class', async () => {
    const body = { name: 'Not mine', classId: classA };
    const other = await teacherB.client.post('/api/admin/chatrooms', body);
    expect(other.status).toBe(403);
    expect(other.body).toMatchObject({ message: ChatMessages.classManagersOnly });
    const lone = await person('teacher');
    for (const caller of [pupil, lone]) {
      const res = await caller.client.post('/api/admin/chatrooms', body);
      expect(res.status).toBe(403);
      expect(res.body).toMatchObject({ message: IdentityMessages.adminRequired });
    }
    // A class's teacher makes only class rooms: the spec's rooms stay the administrators'.
    const plain = await teacherA.client.post('/api/admin/chatrooms', { name: 'Plain' });
    expect(plain.status).toBe(403);
    expect(plain.body).toMatchObject({ message: IdentityMessages.adminRequired });
  });

  it('lets the school’s administrator and a district administrator make one, not another school’s administrator', async () => {
    expect((await classRoom(adminOfA)).invitedUserIds).toEqual([teacherA.id, pupil.id]);
    expect((await classRoom(await adminPerson())).classId).toBe(classA);
    const res = await adminOfB.client.post('/api/admin/chatrooms', {
      name: 'Not my school',
      classId: classA,
    });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ message: ChatMessages.classManagersOnly });
  });

  it('refuses a hand-made invite list, an unknown class and a malformed class id', async () => {
    const invited = await teacherA.client.post('/api/admin/chatrooms', {
      name: 'Mixed',
      classId: classA,
      invitedUserIds: [randomUUID()],
    });
    expect(invited.status).toBe(400);
    expect(invited.body).toMatchObject({ message: ChatMessages.classRoomInvitesFollowRoster });
    const unknown = await live.admin.post('/api/admin/chatrooms', { name: 'Nowhere', classId: randomUUID() });
    expect(unknown.status).toBe(400);
    expect(unknown.body).toMatchObject({ message: ChatMessages.classNotFound });
    const malformed = await teacherA.client.post('/api/admin/chatrooms', { name: 'Bad', classId: 'class-1' });
    expect(malformed.status).toBe(400);
    expect(malformed.body).toMatchObject({ message: ChatMessages.classIdInvalid });
  });
});

describe('managing class chatrooms', () => {
  it('lists a class’s rooms to its managers only, and every room to a district administrator', async () => {
    const room = await classRoom(teacherA);
    const spec = await live.room([pupil.id]);
    const mine = await teacherA.client.get<Chatroom[]>('/api/admin/chatrooms');
    expect(mine.status).toBe(200);
    const ids = chatroomListSchema.parse(mine.body).map((r) => r.id);
    expect(ids).toContain(room.id);
    expect(ids).not.toContain(spec.id);
    expect(mine.body.every((r) => r.classId === classA)).toBe(true);
    expect((await adminOfA.client.get<Chatroom[]>('/api/admin/chatrooms')).body.map((r) => r.id)).toContain(
      room.id,
    );
    expect(
      (await teacherB.client.get<Chatroom[]>('/api/admin/chatrooms')).body.map((r) => r.id),
    ).not.toContain(room.id);
    const all = (await live.admin.get<Chatroom[]>('/api/admin/chatrooms')).body.map((r) => r.id);
    expect(all).toEqual(expect.arrayContaining([room.id, spec.id]));
    expect((await pupil.client.get('/api/admin/chatrooms')).status).toBe(403);
  });

  it('lets its managers change and delete it, and nobody else; its invite list is not set by hand', async () => {
    const room = await classRoom(teacherA);
    const spec = await live.room();
    const renamed = await teacherA.client.put<Chatroom>(`/api/admin/chatrooms/${room.id}`, {
      name: 'Renamed',
    });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({
      name: 'Renamed',
      classId: classA,
      invitedUserIds: room.invitedUserIds,
    });
    for (const [caller, target] of [
      [teacherB, room.id],
      [adminOfB, room.id],
      [teacherA, spec.id],
    ] as const) {
      for (const res of [
        await caller.client.put(`/api/admin/chatrooms/${target}`, { isActive: false }),
        await caller.client.delete(`/api/admin/chatrooms/${target}`),
      ]) {
        expect(res.status).toBe(403);
        expect(res.body).toMatchObject({ message: ChatMessages.classManagersOnly });
      }
    }
    const byHand = await live.admin.put(`/api/admin/chatrooms/${room.id}`, {
      invitedUserIds: [randomUUID()],
    });
    expect(byHand.status).toBe(400);
    expect(byHand.body).toMatchObject({ message: ChatMessages.classRoomInvitesFollowRoster });
    expect(
      (await teacherA.client.put(`/api/admin/chatrooms/${randomUUID()}`, { isActive: false })).status,
    ).toBe(404);
    expect((await adminOfA.client.delete(`/api/admin/chatrooms/${room.id}`)).status).toBe(204);
    expect((await live.admin.delete(`/api/admin/chatrooms/${(await classRoom(teacherA)).id}`)).status).toBe(
      204,
    );
  });
});

describe('a class chatroom follows the class roster', () => {
  it('lets a student enrolled later join, and refuses a student whose enrolment ended', async () => {
    const room = await classRoom(teacherA);
    const late = await open(newcomer.cookie);
    expect(await late.join(room.id, 'Nuevo')).toMatchObject({ type: 'join_rejected', reason: 'not_invited' });
    await publishClass(live.app, {
      classId: classA,
      schoolId: schoolA,
      teacherIds: [teacherA.id],
      studentIds: [pupil.id, newcomer.id],
    });
    await waitFor(async () => (await invitedOf(room.id)).includes(newcomer.id), 'newcomer invited', 5000);
    expect(await late.join(room.id, 'Nuevo')).toMatchObject({ type: 'joined', chatroom: room.id });
    late.close();

    await publishClass(live.app, {
      classId: classA,
      schoolId: schoolA,
      teacherIds: [teacherA.id],
      studentIds: [pupil.id],
    });
    await waitFor(async () => !(await invitedOf(room.id)).includes(newcomer.id), 'newcomer uninvited', 5000);
    const again = await open(newcomer.cookie);
    expect(await again.join(room.id, 'Nuevo')).toMatchObject({
      type: 'join_rejected',
      reason: 'not_invited',
    });
  });

  it('puts a student whose enrolment ends out of the live room, and keeps the others', async () => {
    const room = await classRoom(teacherA);
    await publishClass(live.app, {
      classId: classA,
      schoolId: schoolA,
      teacherIds: [teacherA.id],
      studentIds: [pupil.id, newcomer.id],
    });
    await waitFor(async () => (await invitedOf(room.id)).includes(newcomer.id), 'newcomer invited', 5000);
    const leaving = await open(newcomer.cookie);
    const staying = await open(pupil.cookie);
    await leaving.join(room.id, 'Nuevo');
    await staying.join(room.id, 'Ana');
    await publishClass(live.app, {
      classId: classA,
      schoolId: schoolA,
      teacherIds: [teacherA.id],
      studentIds: [pupil.id],
    });
    expect((await leaving.closedWith(5000)).code).toBe(ChatCloseCodes.roomClosed);
    await staying.next((e) => e.type === 'user_left' && e.name === 'Nuevo', 'Nuevo leaves');
    expect(staying.closed).toBeNull();
  });

  it('invites nobody while the class has ended, and its students again when it comes back', async () => {
    const room = await classRoom(teacherA);
    const inside = await open(pupil.cookie);
    await inside.join(room.id, 'Ana');
    await publishClass(live.app, {
      classId: classA,
      schoolId: schoolA,
      teacherIds: [teacherA.id],
      studentIds: [pupil.id],
      active: false,
    });
    expect((await inside.closedWith(5000)).code).toBe(ChatCloseCodes.roomClosed);
    expect(await invitedOf(room.id)).toEqual([]);
    await publishClass(live.app, {
      classId: classA,
      schoolId: schoolA,
      teacherIds: [teacherA.id],
      studentIds: [pupil.id],
    });
    await waitFor(async () => (await invitedOf(room.id)).includes(pupil.id), 'pupil invited again', 5000);
  });
});

describe('a class chatroom made while a snapshot of its class is applied', () => {
  it('reads the class roster once the snapshot has committed, so the new room is never behind it', async () => {
    const late = randomUUID();
    // What the projection does when a newer snapshot arrives: the class row locked, its members rewritten.
    const runner = live.app.dataSource.createQueryRunner();
    await runner.connect();
    await runner.startTransaction();
    let creating: Promise<{ status: number; body: Chatroom }> | undefined;
    try {
      await runner.query(`SELECT id FROM roster_classes WHERE id = $1 FOR UPDATE`, [classA]);
      await runner.query(`INSERT INTO roster_members (class_id, user_id, role) VALUES ($1, $2, 'student')`, [
        classA,
        late,
      ]);
      creating = teacherA.client.post<Chatroom>('/api/admin/chatrooms', { name: 'Racing', classId: classA });
      let answered = false;
      creating.then(
        () => (answered = true),
        () => (answered = true),
      );
      // The create waits for the snapshot's transaction (or, reading past it, has already answered).
      await waitFor(
        async () => answered || (await waitsForClassRow()),
        'the create waits or answers',
        10_000,
      );
      await runner.commitTransaction();
    } finally {
      await runner.release();
    }
    const res = await creating;
    expect(res?.status).toBe(201);
    expect(res?.body.invitedUserIds).toContain(late);
    await publishClass(live.app, {
      classId: classA,
      schoolId: schoolA,
      teacherIds: [teacherA.id],
      studentIds: [pupil.id],
    });
  });
});

/** Whether a statement waits for a lock on a class's projection row (the create's read of the roster). */
async function waitsForClassRow(): Promise<boolean> {
  const rows: { waiting: boolean }[] = await live.app.dataSource.query(
    `SELECT EXISTS (SELECT 1 FROM pg_stat_activity WHERE wait_event_type = 'Lock'
       AND query LIKE '%FROM roster_classes WHERE id = $1 AND active%') AS waiting`,
  );
  return rows[0].waiting;
}

let districtAdmin: LivePerson | undefined;
async function adminPerson(): Promise<LivePerson> {
  districtAdmin ??= await person('admin');
  return districtAdmin;
}
