import { randomUUID } from 'node:crypto';
import { ContentMessages, Subjects, type Comment, type Post } from '@district/contracts';
import { SessionStateStore } from '@district/nest-common';
import type { HttpClient } from '@district/nest-common/testing';
import { startContent, type ContentTestApp } from './support/content-app';

let app: ContentTestApp;
let admin: HttpClient;
let post: Post;

beforeAll(async () => {
  app = await startContent();
  admin = (await app.signIn('admin')).client;
  post = (await admin.post<Post>('/api/posts', { title: 'Commented lesson', status: 'published' })).body;
});
afterAll(async () => {
  await app?.close();
});

const path = () => `/api/posts/${post.id}/comments`;

describe('writing comments', () => {
  it('needs a sign-in, in the spec words', async () => {
    const res = await app.client().post(path(), { content: 'hello' });
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ message: ContentMessages.signInToComment });
  });

  it('asks a signed-out visitor to sign in whatever the post id (found by the route fuzzer)', async () => {
    // The id used to be checked first: a malformed one answered 404, one with NUL 400, before the sign-in.
    for (const id of ['true', `${post.id}%00`, post.id.toUpperCase(), randomUUID(), '..%2F']) {
      const res = await app.client().post(`/api/posts/${id}/comments`, { content: 'hello' });
      expect(`${id}: ${res.status} ${(res.body as { message?: string }).message}`).toBe(
        `${id}: 401 ${ContentMessages.signInToComment}`,
      );
    }
  });

  it('still refuses a malformed post id to someone signed in, as not found or NUL', async () => {
    const { client } = await app.signIn('student');
    expect((await client.post('/api/posts/true/comments', { content: 'hello' })).status).toBe(404);
    expect((await client.post(`/api/posts/${post.id}%00/comments`, { content: 'hello' })).status).toBe(400);
  });

  it('refuses empty comments after trimming and sanitising', async () => {
    const { client } = await app.signIn('student');
    for (const content of ['', '   \n ', '<script>alert(1)</script>', '<p> </p>']) {
      const res = await client.post(path(), { content });
      expect(res.status).toBe(400);
    }
  });

  it('lets the server decide the status: students wait, approved teachers and admins do not', async () => {
    const { client: student } = await app.signIn('student', { name: 'Sam' });
    const held = await student.post<Comment>(path(), { content: 'First!', status: 'approved' });
    expect(held.status).toBe(201);
    expect(held.body).toMatchObject({ status: 'pending', authorName: 'Sam', own: true, parentId: null });
    const { client: teacher } = await app.signIn('teacher');
    expect((await teacher.post<Comment>(path(), { content: 'Nice', status: 'pending' })).body.status).toBe(
      'approved',
    );
    expect(
      (await admin.post<Comment>(path(), { content: 'Held by me', status: 'pending' })).body.status,
    ).toBe('pending');
    const { client: pending } = await app.signIn('pending');
    expect((await pending.post<Comment>(path(), { content: 'Waiting' })).body.status).toBe('pending');

    // Anyone may register as a teacher: until an admin approves the account, it is moderated like a student.
    const { client: newTeacher } = await app.signIn('teacher', { approved: false });
    expect(
      (await newTeacher.post<Comment>(path(), { content: 'Unvetted', status: 'approved' })).body.status,
    ).toBe('pending');
    // An admin flag on an unapproved account is not trusted either: its requested status is ignored.
    const { client: unapprovedAdmin } = await app.signIn('admin', { approved: false });
    expect(
      (await unapprovedAdmin.post<Comment>(path(), { content: 'Not vetted', status: 'approved' })).body
        .status,
    ).toBe('pending');

    // With moderation off, students' comments are approved at once.
    await admin.post('/api/seo/settings', { commentModeration: false });
    expect((await student.post<Comment>(path(), { content: 'Unmoderated' })).body.status).toBe('approved');
    await admin.post('/api/seo/settings', { commentModeration: true });
  });

  it('shows approved comments to all, and pending ones only to their author (labelled) and admins', async () => {
    const { client: author } = await app.signIn('student');
    const mine = (
      await author.post<Comment>(path(), { content: '<b>mine</b> <a href="https://example.org">x</a>' })
    ).body;
    expect(mine.content).toBe(
      '<b>mine</b> <a href="https://example.org" rel="ugc noopener noreferrer nofollow">x</a>',
    );
    const ownView = await author.get<Comment[]>(path());
    expect(ownView.body.find((c) => c.id === mine.id)).toMatchObject({ status: 'pending', own: true });
    const { client: other } = await app.signIn('student');
    const othersView = await other.get<Comment[]>(path());
    expect(othersView.body.some((c) => c.id === mine.id)).toBe(false);
    expect(othersView.body.every((c) => c.status === 'approved')).toBe(true);
    expect((await app.client().get<Comment[]>(path())).body.some((c) => c.id === mine.id)).toBe(false);
    expect((await admin.get<Comment[]>(path())).body.some((c) => c.id === mine.id)).toBe(true);
  });

  it("shows authors' user ids to admins only; others get the own flag", async () => {
    const { client: teacher, person: teacherPerson } = await app.signIn('teacher');
    const top = (await teacher.post<Comment>(path(), { content: 'Whose is this?' })).body;
    const { client: student, person: studentPerson } = await app.signIn('student');
    const reply = await student.post<Comment>(path(), { content: 'Mine', parentId: top.id });
    expect(reply.body).toMatchObject({ own: true });
    expect(reply.body).not.toHaveProperty('authorId');
    await admin.patch(`/api/comments/${reply.body.id}/status`, { status: 'approved' });

    const everyComment = (list: Comment[]) => list.flatMap((c) => [c, ...(c.replies ?? [])]);
    for (const viewer of [app.client(), student, teacher, (await app.signIn('pending')).client]) {
      const listed = everyComment((await viewer.get<Comment[]>(path())).body);
      expect(listed.map((c) => c.id)).toEqual(expect.arrayContaining([top.id, reply.body.id]));
      expect(listed.filter((c) => 'authorId' in c)).toEqual([]);
    }
    expect(
      everyComment((await student.get<Comment[]>(path())).body).find((c) => c.id === reply.body.id),
    ).toMatchObject({
      own: true,
    });

    const adminView = everyComment((await admin.get<Comment[]>(path())).body);
    expect(adminView.find((c) => c.id === top.id)).toMatchObject({ authorId: teacherPerson.id });
    expect(adminView.find((c) => c.id === reply.body.id)).toMatchObject({ authorId: studentPerson.id });
    const moderation = (await admin.get<Comment[]>('/api/comments')).body;
    expect(moderation.find((c) => c.id === top.id)).toMatchObject({ authorId: teacherPerson.id });
    // The event still names the author (consumers need it; they are not the public).
    const events: { payload: { comment: { authorId: string } } }[] = await app.dataSource.query(
      `SELECT payload FROM outbox WHERE payload->'comment'->>'id' = $1`,
      [reply.body.id],
    );
    expect(events.map((e) => e.payload.comment.authorId)).toContain(studentPerson.id);
  });

  it('allows replies one level deep, only to approved top-level comments', async () => {
    const { client: teacher } = await app.signIn('teacher');
    const top = (await teacher.post<Comment>(path(), { content: 'Top' })).body;
    const { client: student } = await app.signIn('student');
    const reply = await student.post<Comment>(path(), { content: 'Reply', parentId: top.id });
    expect(reply.status).toBe(201);
    expect((await admin.patch(`/api/comments/${reply.body.id}/status`, { status: 'approved' })).status).toBe(
      200,
    );
    const nested = await student.post(path(), { content: 'Too deep', parentId: reply.body.id });
    expect(nested.status).toBe(400);
    expect(nested.body).toMatchObject({ message: ContentMessages.replyNotAllowed });
    const pendingTop = (await student.post<Comment>(path(), { content: 'Pending top' })).body;
    expect((await teacher.post(path(), { content: 'to pending', parentId: pendingTop.id })).status).toBe(400);
    expect((await teacher.post(path(), { content: 'unknown', parentId: randomUUID() })).status).toBe(400);

    const list = await app.client().get<Comment[]>(path());
    const shown = list.body.find((c) => c.id === top.id);
    expect(shown?.replies?.map((r) => r.id)).toEqual([reply.body.id]);
  });

  it('lists every comment for admins with the post title, moderates and deletes (with replies)', async () => {
    const { client: teacher } = await app.signIn('teacher');
    const top = (await teacher.post<Comment>(path(), { content: 'Parent' })).body;
    const reply = (await teacher.post<Comment>(path(), { content: 'Child', parentId: top.id })).body;
    const all = await admin.get<Comment[]>('/api/comments');
    expect(all.body.find((c) => c.id === top.id)).toMatchObject({ postTitle: 'Commented lesson' });
    const unapproved = await admin.patch<Comment>(`/api/comments/${top.id}/status`, { status: 'pending' });
    expect(unapproved.body.status).toBe('pending');
    expect((await admin.delete(`/api/comments/${top.id}`)).status).toBe(204);
    const after = await admin.get<Comment[]>('/api/comments');
    expect(after.body.some((c) => c.id === top.id || c.id === reply.id)).toBe(false);
    expect((await admin.delete(`/api/comments/${top.id}`)).status).toBe(404);
    expect((await admin.patch('/api/comments/nope/status', { status: 'approved' })).status).toBe(404);
  });

  it('refuses comments on drafts and unknown posts', async () => {
    const draft = (await admin.post<Post>('/api/posts', { title: 'Draft for comments' })).body;
    const { client } = await app.signIn('student');
    expect((await client.post(`/api/posts/${draft.id}/comments`, { content: 'hi' })).status).toBe(404);
    expect((await client.get(`/api/posts/${draft.id}/comments`)).status).toBe(404);
    expect((await client.post(`/api/posts/${randomUUID()}/comments`, { content: 'hi' })).status).toBe(404);
  });
});

describe('people changing in identity', () => {
  it("refuses a deleted user's next comment at once", async () => {
    const { client, person } = await app.signIn('student');
    expect((await client.post(path(), { content: 'before' })).status).toBe(201);
    await new SessionStateStore(app.runtime.store).markDeleted(person.id);
    const res = await client.post(path(), { content: 'after' });
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ message: ContentMessages.signInToComment });
  });

  it('renames the author and removes a deleted user’s comments, once per event', async () => {
    const { client, person } = await app.signIn('teacher', { name: 'Old Name' });
    const top = (await client.post<Comment>(path(), { content: 'mine' })).body;
    const { client: other } = await app.signIn('teacher');
    const reply = (await other.post<Comment>(path(), { content: 'reply to it', parentId: top.id })).body;

    const user = {
      id: person.id,
      name: 'New Name',
      username: 'n',
      email: 'n@school.test',
      role: 'teacher',
      approved: true,
      isAdmin: false,
      profileImage: null,
      createdAt: new Date().toISOString(),
    };
    await app.runtime.bus.publish(Subjects.identityUserUpdated, { user, tokenVersion: 2, changed: ['name'] });
    await eventually(async () => {
      const list = await app.client().get<Comment[]>(path());
      expect(list.body.find((c) => c.id === top.id)?.authorName).toBe('New Name');
    });

    const messageId = randomUUID();
    await app.runtime.bus.publish(Subjects.identityUserDeleted, { userId: person.id }, { id: messageId });
    await eventually(async () => {
      const all = await admin.get<Comment[]>('/api/comments');
      expect(all.body.some((c) => c.id === top.id || c.id === reply.id)).toBe(false);
    });
    const inbox: unknown[] = await app.dataSource.query(
      `SELECT 1 FROM inbox WHERE consumer = 'content-user-deleted' AND message_id = $1`,
      [messageId],
    );
    expect(inbox).toHaveLength(1);
    const outbox: { subject: string }[] = await app.dataSource.query(
      `SELECT subject FROM outbox WHERE payload->>'commentId' = ANY($1)`,
      [[top.id, reply.id]],
    );
    expect(outbox.map((r) => r.subject)).toEqual([
      Subjects.contentCommentDeleted,
      Subjects.contentCommentDeleted,
    ]);
  });
});

async function eventually(check: () => Promise<void>, timeoutMs = 5000): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    try {
      await check();
      return;
    } catch (error) {
      if (Date.now() > until) throw error;
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}
