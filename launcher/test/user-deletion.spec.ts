import Redis from 'ioredis';
import { Client } from 'pg';
import { ChatCloseCodes } from '@district/contracts';
import { GatewayChatClient } from './support/chat-client';
import { startClusterStack, type ClusterStack } from './support/cluster-stack';
import { cookieOf, jsonRequest, waitFor } from './support/processes';

/**
 * Issue #14 §5, the deletion across all five services, for real: `launcher/src/cluster.ts` (every service its own
 * OS process, the gateway in front) against this machine's PostgreSQL, NATS and Redis. One teacher leaves a trace
 * in every service — a comment (content), a result and an accommodation (assessment), an invitation, a seat and a
 * message in a chatroom (chat), an audio list, a lesson plan and a slide deck (classroom) — then an admin deletes
 * them through identity's admin API. Once the events have settled, each service's schema is queried directly
 * (and chat's shared store in Redis): what ADRs 0017–0020 remove is gone, what they keep is anonymised, and the
 * person's id and name appear in no row of any service's own tables. Before the deletion, the admin's
 * right-of-access export (ADR 0021) is assembled over real NATS from every service's part.
 */
jest.setTimeout(240_000);

const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const SERVICES = ['identity', 'content', 'chat', 'assessment', 'classroom'] as const;
/**
 * Not scanned for the person: the platform's messaging tables (relay and deduplication state, not a service's
 * data about people; published rows are purged after 7 days) and identity's audit log, which keeps who did what
 * to whom for accountability, append-only (ADR 0021) — checked below to hold the deletion itself.
 */
const KEPT_TABLES = new Set(['outbox', 'inbox', 'migrations', 'audit_log']);
const NAME = 'Morgan Departing';
const ADMIN = { email: 'root@district.test', password: 'correct horse battery' };

describe('deleting a user reaches every service', () => {
  let stack: ClusterStack;
  let gateway: string;
  let db: Client;
  let redis: Redis;

  beforeAll(async () => {
    stack = await startClusterStack({
      name: 'deletion',
      admin: ADMIN,
      ready: ({ services }) => SERVICES.every((s) => (services[s]?.available ?? 0) >= 1),
      waitingFor: 'the gateway and all five services',
    });
    ({ gateway } = stack);
    const databaseUrl = stack.databaseUrl;
    db = new Client({ connectionString: databaseUrl });
    await db.connect();
    redis = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
    await redis.connect();
  });

  afterAll(async () => {
    redis?.disconnect();
    await db?.end();
    await stack?.stop();
  });

  const call = async (method: string, route: string, cookie: string, body?: unknown) => {
    const res = await fetch(
      `${gateway}${route}`,
      body === undefined
        ? { method, headers: { origin: gateway, cookie } }
        : jsonRequest(gateway, method, body, cookie),
    );
    const text = await res.text();
    return { status: res.status, body: (text ? JSON.parse(text) : undefined) as Record<string, unknown> };
  };
  const signIn = async (email: string, password: string) => {
    const res = await fetch(`${gateway}/api/auth/login`, jsonRequest(gateway, 'POST', { email, password }));
    expect(res.status).toBe(200);
    return cookieOf(res);
  };
  const one = async (sql: string, params: unknown[]) => Number((await db.query(sql, params)).rows[0].n);
  /** Rows of a service's own tables whose text mentions `needle` (case-insensitive), by table. */
  const mentions = async (needle: string) => {
    const found: Record<string, number> = {};
    const { rows } = await db.query<{ table_schema: string; table_name: string }>(
      `SELECT table_schema, table_name FROM information_schema.tables
        WHERE table_schema = ANY($1) AND table_type = 'BASE TABLE'`,
      [[...SERVICES]],
    );
    for (const { table_schema: schema, table_name: table } of rows) {
      if (KEPT_TABLES.has(table)) continue;
      const n = await one(
        `SELECT count(*) AS n FROM "${schema}"."${table}" t WHERE t::text ILIKE '%' || $1 || '%'`,
        [needle],
      );
      if (n > 0) found[`${schema}.${table}`] = n;
    }
    return found;
  };
  const chatLog = async (roomId: string) => {
    const [key] = await redis.keys(`*chat:log:${roomId}:e`);
    return key ? await redis.zrange(key, 0, -1) : [];
  };
  const chatSeats = async (roomId: string) => {
    const [key] = await redis.keys(`*chat:names:${roomId}`);
    return key ? Object.values(await redis.hgetall(key)) : [];
  };

  it('removes or anonymises the deleted teacher’s data in identity, content, chat, assessment and classroom', async () => {
    const adminCookie = await signIn(ADMIN.email, ADMIN.password);
    const register = await fetch(
      `${gateway}/api/auth/register`,
      jsonRequest(gateway, 'POST', {
        name: NAME,
        username: 'morgan',
        email: 'morgan@district.test',
        password: 'secret-pass',
        role: 'teacher',
      }),
    );
    expect(register.status).toBe(201);
    const userId = ((await register.json()) as { id: string }).id;
    expect(
      (await call('PATCH', `/api/users/${userId}/approval`, adminCookie, { approved: true })).status,
    ).toBe(200);
    const teacher = await signIn('morgan@district.test', 'secret-pass');

    // content: a comment (and a reply to it by the admin, which goes with it) on the admin's published lesson.
    const post = await call('POST', '/api/posts', adminCookie, { title: 'Saludos', status: 'published' });
    expect(post).toMatchObject({ status: 201 }); // the whole answer, so a failure shows its body
    const comment = await call('POST', `/api/posts/${post.body.id}/comments`, teacher, {
      content: '¡Muy bien!',
    });
    expect(comment).toMatchObject({ status: 201 });
    const reply = await call('POST', `/api/posts/${post.body.id}/comments`, adminCookie, {
      content: 'Gracias',
      parentId: comment.body.id,
    });
    expect(reply).toMatchObject({ status: 201 });

    // assessment: a result (an attempt) and an accommodation.
    const quiz = await call('POST', '/api/text-quizzes', adminCookie, {
      title: 'Colores',
      maxAttempts: 1,
      questions: [{ question: 'rojo', options: ['red', 'blue', 'green', 'black'], correctAnswer: 0 }],
    });
    expect(quiz).toMatchObject({ status: 201 });
    expect(
      (
        await call('PUT', `/api/text-quizzes/${quiz.body.id}/accommodations/${userId}`, adminCookie, {
          extraAttempts: 2,
        })
      ).status,
    ).toBe(204);
    expect(
      (await call('POST', '/api/text-quiz-grades', teacher, { quizId: quiz.body.id, userAnswers: [0] }))
        .status,
    ).toBe(201);
    // An administrative grade deletion (of the admin's own try), for the audit log.
    const adminTry = await call('POST', '/api/text-quiz-grades', adminCookie, {
      quizId: quiz.body.id,
      userAnswers: [1],
    });
    expect(adminTry).toMatchObject({ status: 201 });
    expect((await call('DELETE', `/api/text-quiz-grades/${adminTry.body.id}`, adminCookie)).status).toBe(204);
    // Comment moderation, for the audit log.
    expect(
      (await call('PATCH', `/api/comments/${comment.body.id}/status`, adminCookie, { status: 'approved' }))
        .status,
    ).toBe(200);

    // classroom: an audio list, a lesson plan whose teacher line repeats their name, a slide deck.
    const list = await call('POST', '/api/audio-lists', teacher, {
      title: 'Canciones',
      audioFiles: [{ name: 'Hola', url: '/sounds/quiz/hola.mp3' }],
    });
    expect(list).toMatchObject({ status: 201 });
    const phase = {
      timeAllotted: '10 mins',
      teacherWill: 'Model',
      studentsWill: 'Repeat',
      instructionTypes: [],
    };
    const plan = await call('POST', '/api/lesson-plans', teacher, {
      title: 'Greetings',
      teacher: ` ${NAME.toUpperCase()} `,
      warmUp: phase,
      explore: phase,
      explain: phase,
      elaborate: phase,
      evaluate: { timeAllotted: '5 mins', teacherWill: 'Quiz', studentsWill: 'Exit ticket' },
    });
    expect(plan).toMatchObject({ status: 201 });
    const slide = await call('POST', '/api/google-slides', teacher, {
      title: 'Los números',
      googleSlidesUrl: 'https://docs.google.com/presentation/d/1AbC-d_9xYz/edit?usp=sharing',
    });
    expect(slide).toMatchObject({ status: 201 });

    // chat: invited to a room, seated under a name, a message in the room's log.
    const room = await call('POST', '/api/admin/chatrooms', adminCookie, {
      name: 'Sala',
      invitedUserIds: [userId],
    });
    expect(room).toMatchObject({ status: 201 });
    const roomId = room.body.id as string;
    const socket = await GatewayChatClient.open(gateway, teacher);
    try {
      socket.send({ type: 'join', name: 'Morgan', role: 'teacher', chatroom: roomId });
      await socket.next((e) => e.type === 'joined', 'joined');
      socket.send({ type: 'message', text: 'Hola clase', chatroom: roomId });
      await socket.next((e) => e.type === 'message', 'the message echoed');

      // Before: every service holds the person.
      expect(await chatLog(roomId)).toEqual([expect.stringContaining(`${userId} {"type":"message"`)]);
      expect((await chatSeats(roomId)).join('\n')).toContain(userId);
      const before = await mentions(userId);
      expect(Object.keys(before).sort()).toEqual(
        expect.arrayContaining([
          'assessment.accommodations',
          'assessment.grades',
          'chat.chatrooms',
          'classroom.audio_lists',
          'classroom.google_slides',
          'classroom.lesson_plans',
          'content.comments',
          'identity.users',
        ]),
      );

      // The right of access over real NATS (ADR 0021): every service's part of the file, through the gateway.
      const exported = await fetch(`${gateway}/api/admin/users/${userId}/export`, {
        headers: { cookie: adminCookie },
      });
      expect(exported.status).toBe(200);
      expect(exported.headers.get('content-disposition')).toBe(
        `attachment; filename="user-${userId}-export.json"`,
      );
      const file = (await exported.json()) as {
        services: Record<string, Record<string, Array<{ id?: string }>>>;
      };
      const ids = (service: string, section: string) => file.services[service][section].map((row) => row.id);
      expect(file.services.identity.user).toMatchObject({
        id: userId,
        name: NAME,
        email: 'morgan@district.test',
      });
      expect(ids('content', 'comments')).toEqual([comment.body.id]);
      expect(file.services.assessment.grades).toHaveLength(1);
      expect(file.services.assessment.accommodations).toEqual([
        expect.objectContaining({ quizId: quiz.body.id }),
      ]);
      expect(ids('chat', 'invitedTo')).toEqual([roomId]);
      expect(file.services.chat.messages).toEqual([
        expect.objectContaining({ chatroomId: roomId, text: 'Hola clase' }),
      ]);
      expect(ids('classroom', 'audioLists')).toEqual([list.body.id]);
      expect(ids('classroom', 'lessonPlans')).toEqual([plan.body.id]);
      expect(ids('classroom', 'slides')).toEqual([slide.body.id]);

      expect((await call('DELETE', `/api/users/${userId}`, adminCookie)).status).toBe(204);
      // Their sockets are closed by chat when the deletion arrives: 4401, the session ended (not 1006, a socket that
      // merely dropped, nor any other close).
      expect(await socket.closedWithin(10_000)).toBe(ChatCloseCodes.sessionChanged);
      expect(socket.events).toContainEqual(
        expect.objectContaining({ type: 'notice', code: 'session_changed' }),
      );
    } finally {
      socket.close();
    }

    /** What still names the person: rows of the services' own tables, chat log entries and seats. */
    const leftovers = async () => ({
      byId: await mentions(userId),
      byName: await mentions(NAME),
      chatLog: (await chatLog(roomId)).filter((e) => e.includes(userId)),
      chatSeats: (await chatSeats(roomId)).filter((s) => s.includes(userId)),
    });
    const settled = { byId: {}, byName: {}, chatLog: [], chatSeats: [] };
    await waitFor(
      async () => JSON.stringify(await leftovers()) === JSON.stringify(settled),
      'every service to settle the deletion',
      20_000,
    ).catch(() => undefined);
    expect(await leftovers()).toEqual(settled);

    // The audit log (over NATS from content, chat and assessment; identity's own in its transactions).
    type Entry = { service: string; action: string; targetId: string; actorName: string; ip: string | null };
    const audit = async () =>
      (await call('GET', '/api/admin/audit-log?pageSize=50', adminCookie)).body as unknown as {
        entries: Entry[];
      };
    const expected = [
      ['identity', 'user.approved', userId],
      ['content', 'comment.approved', comment.body.id],
      ['assessment', 'grade.deleted', adminTry.body.id],
      // An accommodation on a quiz is audited too (ADR 0033), over NATS into identity's log.
      ['assessment', 'quiz.accommodation_set', quiz.body.id],
      ['chat', 'chatroom.created', roomId],
      ['identity', 'user.deleted', userId],
    ];
    await waitFor(
      async () => {
        const seen = (await audit()).entries.map((e) => [e.service, e.action, e.targetId].join(' '));
        return expected.every((x) => seen.includes(x.join(' ')));
      },
      'the audit log to hold every administrative action',
      10_000,
    ).catch(() => undefined);
    const { entries } = await audit();
    expect(entries.map((e) => [e.service, e.action, e.targetId])).toEqual(expect.arrayContaining(expected));
    for (const entry of entries)
      expect(entry).toMatchObject({ actorName: 'Administrator', ip: expect.any(String) });

    // Nothing left to export: the account is gone.
    expect((await call('GET', `/api/admin/users/${userId}/export`, adminCookie)).status).toBe(404);
    // identity: the account is gone.
    expect(await one(`SELECT count(*) AS n FROM identity.users WHERE id = $1`, [userId])).toBe(0);
    // content (ADR 0006 / consumer): the comment and the replies under it are removed; the post stays.
    expect(
      await one(`SELECT count(*) AS n FROM content.comments WHERE id = ANY($1)`, [
        [comment.body.id, reply.body.id],
      ]),
    ).toBe(0);
    expect(await one(`SELECT count(*) AS n FROM content.posts WHERE id = $1`, [post.body.id])).toBe(1);
    // assessment (ADR 0019 §10): results and accommodations removed; the quiz stays.
    expect(await one(`SELECT count(*) AS n FROM assessment.grades WHERE user_id = $1`, [userId])).toBe(0);
    expect(
      await one(`SELECT count(*) AS n FROM assessment.accommodations WHERE user_id = $1`, [userId]),
    ).toBe(0);
    expect(await one(`SELECT count(*) AS n FROM assessment.quizzes WHERE id = $1`, [quiz.body.id])).toBe(1);
    // chat (ADRs 0017 §, 0018 §10): off the invite list, the room stays; their message tombstoned, seat freed.
    const chatRoom = await db.query(
      `SELECT invited_user_ids::text[] AS ids FROM chat.chatrooms WHERE id = $1`,
      [roomId],
    );
    expect(chatRoom.rows).toEqual([{ ids: [] }]);
    expect(await chatLog(roomId)).toEqual(['1 ']);
    expect(await chatSeats(roomId)).toEqual([]);
    // classroom (ADR 0020 §4): kept with the district, anonymised; the teacher line that repeated the name cleared.
    for (const [table, id] of [
      ['audio_lists', list.body.id],
      ['lesson_plans', plan.body.id],
      ['google_slides', slide.body.id],
    ] as const) {
      const { rows } = await db.query(
        `SELECT creator_id, creator_name FROM classroom.${table} WHERE id = $1`,
        [id],
      );
      expect(rows).toEqual([{ creator_id: null, creator_name: 'Former staff member' }]);
    }
    expect(
      (await db.query(`SELECT teacher FROM classroom.lesson_plans WHERE id = $1`, [plan.body.id])).rows,
    ).toEqual([{ teacher: '' }]);
  });
});
