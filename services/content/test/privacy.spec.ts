import {
  PeopleDataSubjects,
  auditRecordedEventSchema,
  userExportReplySchema,
  type AuditRecordedEvent,
  type Comment,
  type Post,
} from '@district/contracts';
import type { BusSubscription } from '@district/nest-common';
import { waitFor, type HttpClient } from '@district/nest-common/testing';
import { startContent, type ContentTestApp } from './support/content-app';

/** content's part of ADR 0021: its answer to the right-of-access request, and comment moderation audited. */
let app: ContentTestApp;
let admin: HttpClient;
let adminId: string;
let post: Post;
let subscription: BusSubscription;
const audits: AuditRecordedEvent[] = [];

beforeAll(async () => {
  app = await startContent();
  const signedIn = await app.signIn('admin');
  admin = signedIn.client;
  adminId = signedIn.person.id;
  post = (await admin.post<Post>('/api/posts', { title: 'Privacy lesson', status: 'published' })).body;
  subscription = await app.runtime.bus.subscribe(
    PeopleDataSubjects.auditRecorded('content'),
    async (m) => void audits.push(auditRecordedEventSchema.parse(m.data)),
    { durable: 'content-test-audit' },
  );
});
afterAll(async () => {
  await subscription?.unsubscribe();
  await app?.close();
});

const comment = async (client: HttpClient, content: string) => {
  const res = await client.post<Comment>(`/api/posts/${post.id}/comments`, { content });
  expect(res.status).toBe(201);
  return res.body;
};

it('answers content.user.export.v1 with the person’s comments and posts, and no one else’s', async () => {
  const { client: student, person } = await app.signIn('student');
  const { client: other } = await app.signIn('student');
  const mine = await comment(student, 'Me gusta');
  await comment(other, 'Not mine');
  const reply = userExportReplySchema.parse(
    await app.runtime.bus.request(PeopleDataSubjects.userExport('content'), { userId: person.id }),
  );
  expect(reply).toEqual({
    service: 'content',
    sections: {
      comments: [
        expect.objectContaining({
          id: mine.id,
          postId: post.id,
          postTitle: 'Privacy lesson',
          authorName: person.name,
        }),
      ],
      posts: [],
    },
  });
  expect(JSON.stringify(reply)).not.toContain('Not mine');
  const authored = userExportReplySchema.parse(
    await app.runtime.bus.request(PeopleDataSubjects.userExport('content'), { userId: adminId }),
  );
  expect(authored.sections.posts.map((p) => p.id)).toContain(post.id);
});

it('publishes content.audit.recorded.v1 with each moderation: approve, unapprove, delete', async () => {
  const { client: student, person } = await app.signIn('student');
  const target = await comment(student, 'Moderate me');
  const ip = { headers: { 'x-forwarded-for': '198.51.100.4' } };
  expect((await admin.patch(`/api/comments/${target.id}/status`, { status: 'pending' }, ip)).status).toBe(
    200,
  );
  expect((await admin.patch(`/api/comments/${target.id}/status`, { status: 'approved' }, ip)).status).toBe(
    200,
  );
  expect((await admin.delete(`/api/comments/${target.id}`, ip)).status).toBe(204);
  await waitFor(
    async () => audits.filter((a) => a.record.targetId === target.id).length === 3,
    'three audit events',
  );
  const records = audits.filter((a) => a.record.targetId === target.id).map((a) => a.record);
  expect(records.map((r) => r.action).sort()).toEqual([
    'comment.approved',
    'comment.deleted',
    'comment.unapproved',
  ]);
  for (const record of records)
    expect(record).toMatchObject({
      actorId: adminId,
      targetType: 'comment',
      targetLabel: person.name,
      details: expect.objectContaining({ postId: post.id, authorId: person.id }),
      ip: expect.stringMatching(/\S/),
    });
});
