import { randomUUID } from 'node:crypto';
import {
  PeopleDataSubjects,
  auditRecordedEventSchema,
  userExportReplySchema,
  type AuditRecordedEvent,
  type Chatroom,
} from '@district/contracts';
import type { BusSubscription } from '@district/nest-common';
import { waitFor, type HttpClient } from '@district/nest-common/testing';
import { LiveKeys } from '../src/live-channels';
import { startChat, type ChatTestApp } from './support/chat-app';

/** chat's part of ADR 0021: its answer to the right-of-access request, and chatroom changes audited. */
let app: ChatTestApp;
let admin: HttpClient;
let adminId: string;
let subscription: BusSubscription;
const audits: AuditRecordedEvent[] = [];

beforeAll(async () => {
  app = await startChat();
  const signedIn = await app.signIn('admin');
  admin = signedIn.client;
  adminId = signedIn.person.id;
  subscription = await app.runtime.bus.subscribe(
    PeopleDataSubjects.auditRecorded('chat'),
    async (m) => void audits.push(auditRecordedEventSchema.parse(m.data)),
    { durable: 'chat-test-audit' },
  );
});
afterAll(async () => {
  await subscription?.unsubscribe();
  await app?.close();
});

const createRoom = async (name: string, invitedUserIds: string[]) => {
  const res = await admin.post<Chatroom>(
    '/api/admin/chatrooms',
    { name, invitedUserIds },
    { headers: { 'x-forwarded-for': '192.0.2.8' } },
  );
  expect(res.status).toBe(201);
  return res.body;
};
/** A message in a room's kept log, as the live hub writes it (`<userId> <json>`). */
const say = (roomId: string, userId: string, name: string, text: string) =>
  app.runtime.pubsub.appendAndPublish(
    LiveKeys.roomChannel(roomId),
    LiveKeys.log(roomId),
    `${userId} ${JSON.stringify({ type: 'message', id: randomUUID(), name, role: 'student', text, timestamp: new Date().toISOString(), chatroom: roomId })}`,
    { keep: 200, ttlMs: 60_000 },
  );

it('answers chat.user.export.v1 with the rooms the person is invited to and their kept messages only', async () => {
  const me = randomUUID();
  const other = randomUUID();
  const room = await createRoom('Privacidad', [me, other]);
  const elsewhere = await createRoom('Otra sala', [other]);
  await say(room.id, me, 'Ana', 'Hola');
  await say(room.id, other, 'Kim', `${me} {"type":"message"`);
  // A room they were never invited to (as an admin, say), still theirs to see.
  await say(elsewhere.id, me, 'Ana', 'Adiós');
  const reply = userExportReplySchema.parse(
    await app.runtime.bus.request(PeopleDataSubjects.userExport('chat'), { userId: me.toUpperCase() }),
  );
  expect(reply.service).toBe('chat');
  expect(reply.sections.invitedTo).toEqual([
    expect.objectContaining({ id: room.id, name: 'Privacidad', isActive: true }),
  ]);
  expect(reply.sections.messages).toEqual([
    expect.objectContaining({
      chatroomId: room.id,
      chatroomName: 'Privacidad',
      seq: 1,
      name: 'Ana',
      text: 'Hola',
    }),
    expect.objectContaining({
      chatroomId: elsewhere.id,
      chatroomName: 'Otra sala',
      seq: 1,
      name: 'Ana',
      text: 'Adiós',
    }),
  ]);
  const nobody = userExportReplySchema.parse(
    await app.runtime.bus.request(PeopleDataSubjects.userExport('chat'), { userId: randomUUID() }),
  );
  expect(nobody.sections).toEqual({ invitedTo: [], messages: [] });
});

it('publishes chat.audit.recorded.v1 with each chatroom change: created, updated, deleted', async () => {
  const room = await createRoom('Audited room', []);
  expect((await admin.put(`/api/admin/chatrooms/${room.id}`, { isActive: false })).status).toBe(200);
  expect((await admin.delete(`/api/admin/chatrooms/${room.id}`)).status).toBe(204);
  await waitFor(
    async () => audits.filter((a) => a.record.targetId === room.id).length === 3,
    'three audit events',
  );
  const records = audits.filter((a) => a.record.targetId === room.id).map((a) => a.record);
  expect(records.map((r) => r.action).sort()).toEqual([
    'chatroom.created',
    'chatroom.deleted',
    'chatroom.updated',
  ]);
  for (const record of records)
    expect(record).toMatchObject({
      actorId: adminId,
      targetType: 'chatroom',
      targetLabel: 'Audited room',
      ip: expect.stringMatching(/\S/),
    });
  expect(records.find((r) => r.action === 'chatroom.updated')?.details).toEqual({
    changed: ['isActive'],
    isActive: false,
  });
  // A refused change (no such room) is no action taken.
  const before = audits.length;
  expect((await admin.delete(`/api/admin/chatrooms/${randomUUID()}`)).status).toBe(404);
  await new Promise((r) => setTimeout(r, 200));
  expect(audits).toHaveLength(before);
});
