import { COMMENT_RATE_LIMITS, ContentMessages, type Comment, type Post } from '@district/contracts';
import type { TestResponse } from '@district/nest-common/testing';
import { startContent, type ContentTestApp } from './support/content-app';

/** Comment creation is rate-limited per account and per address (the platform's RateLimiter, shared store). */

async function publishedPost(app: ContentTestApp): Promise<Post> {
  const { client: admin } = await app.signIn('admin');
  return (await admin.post<Post>('/api/posts', { title: 'Busy lesson', status: 'published' })).body;
}

function expectLimited(res: TestResponse, windowSeconds: number): void {
  expect(res.status).toBe(429);
  expect(res.body).toMatchObject({ statusCode: 429, message: ContentMessages.tooManyComments });
  const retryAfter = Number(res.headers.get('retry-after'));
  expect(Number.isInteger(retryAfter)).toBe(true);
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(windowSeconds);
}

describe('with the default limits', () => {
  let app: ContentTestApp;
  let path: string;

  beforeAll(async () => {
    app = await startContent();
    path = `/api/posts/${(await publishedPost(app)).id}/comments`;
  });
  afterAll(async () => {
    await app?.close();
  });

  it('lets a class behind one address comment normally', () => {
    // 35 students, 8 comments each within ten minutes (far livelier than a class discussion), stay under.
    expect(35 * 8).toBeLessThan(COMMENT_RATE_LIMITS.addressPerTenMinutes);
  });

  it('answers the 11th comment of a minute from one account 429 with Retry-After; others on the address go on', async () => {
    expect(COMMENT_RATE_LIMITS.accountPerMinute).toBe(10);
    // Signed-out attempts and invalid bodies are refused before anything is counted.
    for (let i = 0; i < 12; i++)
      expect((await app.client().post(path, { content: 'spam' })).status).toBe(401);
    const { client: student } = await app.signIn('student');
    for (const content of ['', '<script>alert(1)</script>', 'x'.repeat(6000)])
      expect((await student.post(path, { content })).status).toBe(400);

    for (let i = 1; i <= 10; i++) {
      const res = await student.post<Comment>(path, { content: `Comment ${i}` });
      expect({ i, status: res.status }).toEqual({ i, status: 201 });
    }
    expectLimited(await student.post(path, { content: 'one too many' }), 60);
    // Still refused, and nothing was written.
    expectLimited(await student.post(path, { content: 'and again' }), 60);
    const mine = (await student.get<Comment[]>(path)).body.filter((c) => c.own);
    expect(mine).toHaveLength(10);

    // A classmate at the same school address is not affected.
    const { client: classmate } = await app.signIn('student');
    expect((await classmate.post(path, { content: 'My first comment' })).status).toBe(201);
    // Reading is never limited.
    expect((await student.get(path)).status).toBe(200);
  });

  it('does not limit approved admins, the moderators (an admin flag on an unapproved account counts for nothing)', async () => {
    const { client: admin } = await app.signIn('admin');
    for (let i = 1; i <= 12; i++)
      expect({ i, status: (await admin.post(path, { content: `Thanks ${i}` })).status }).toEqual({
        i,
        status: 201,
      });
    const { client: unapproved } = await app.signIn('admin', { approved: false });
    for (let i = 1; i <= 10; i++)
      expect((await unapproved.post(path, { content: `Hi ${i}` })).status).toBe(201);
    expectLimited(await unapproved.post(path, { content: 'Hi 11' }), 60);
  });
});

describe('with small limits from the environment', () => {
  let app: ContentTestApp;
  let path: string;
  const from = (address: string) => ({ headers: { 'x-forwarded-for': address } });

  beforeAll(async () => {
    app = await startContent({
      env: {
        // Below the per-minute limit, so the hourly one is what a burst meets.
        CONTENT_COMMENT_RATE_PER_ACCOUNT_HOUR: '4',
        CONTENT_COMMENT_RATE_PER_ADDRESS: '5',
      },
    });
    path = `/api/posts/${(await publishedPost(app)).id}/comments`;
  });
  afterAll(async () => {
    await app?.close();
  });

  it('limits an address across accounts, without touching other addresses', async () => {
    const school = '203.0.113.10';
    // Signed-out visitors and invalid comments at that address do not use up its allowance.
    for (let i = 0; i < 6; i++)
      expect((await app.client().post(path, { content: 'hi' }, from(school))).status).toBe(401);
    const { client: careless } = await app.signIn('student');
    for (let i = 0; i < 6; i++)
      expect((await careless.post(path, { content: ' ' }, from(school))).status).toBe(400);
    for (let i = 0; i < 5; i++) {
      const { client } = await app.signIn('student');
      expect((await client.post(path, { content: `hello ${i}` }, from(school))).status).toBe(201);
    }
    const { client: sixth } = await app.signIn('student');
    expectLimited(await sixth.post(path, { content: 'from a new account' }, from(school)), 600);
    // The same account from elsewhere, and anyone elsewhere, are fine.
    expect((await sixth.post(path, { content: 'from home' }, from('198.51.100.20'))).status).toBe(201);
  });

  it('holds an account to its hourly limit, wherever it posts from', async () => {
    const { client } = await app.signIn('teacher');
    for (let i = 0; i < 4; i++)
      expect((await client.post(path, { content: `note ${i}` }, from(`192.0.2.${i + 1}`))).status).toBe(201);
    const res = await client.post(path, { content: 'fifth' }, from('192.0.2.99'));
    expectLimited(res, 3600);
    // The hour's window, not the minute's.
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(60);
  });
});
