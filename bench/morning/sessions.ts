import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { ChatPeer } from '../faults/load';
import { MorningClient, sessionCookie, type Answer } from './client';
import { QUESTION_COUNT, type MorningClass, type Person } from './district';

/**
 * One pupil's school morning and one teacher's (issue #38 item 1), each an async function through the gateway,
 * every call timed by route and its status checked. A session that cannot go on (no sign-in, no quiz) ends there,
 * counted as failed; its errors are already recorded.
 */

export const ROUTES = {
  login: 'POST /api/auth/login',
  me: 'GET /api/auth/me',
  home: 'GET /',
  lessonPage: 'GET /blog/{slug}',
  comments: 'GET /api/posts/{id}/comments',
  comment: 'POST /api/posts/{id}/comments',
  quizzes: 'GET /api/text-quizzes',
  attempt: 'POST /api/text-quizzes/{id}/attempts',
  submit: 'POST /api/text-quiz-grades',
  rooms: 'GET /api/chatrooms',
  wsJoin: 'WS /ws join',
  wsEcho: 'WS /ws message echo',
  lists: 'GET /api/audio-lists',
  play: 'GET /api/audio-proxy',
  logout: 'POST /api/auth/logout',
  classes: 'GET /api/classes',
  summary: 'GET /api/text-quiz-grades/summary',
  grades: 'GET /api/text-quiz-grades',
  analysis: 'GET /api/text-quizzes/{id}/analysis',
  moderate: 'PATCH /api/comments/{id}/status',
} as const;

/** Routes not held to the p95 limit: an echo waits on the room's other sockets as well as the server. */
export const LATENCY_EXEMPT: readonly string[] = [ROUTES.wsEcho];

/** What the sessions acknowledged, to be counted in the databases afterwards. */
export class Ledger {
  /** Idempotency key → the stored grade's id once acknowledged (null: never acknowledged). */
  readonly grades = new Map<string, string | null>();
  readonly comments: string[] = [];
  /** Comments waiting for a teacher's moderation. */
  readonly toModerate: string[] = [];
  moderated = 0;
  /** Chat clients by room, kept after they leave for the delivery check. */
  readonly peers = new Map<string, ChatPeer[]>();
  messagesSent = 0;
  messagesConfirmed = 0;
  audioBytes = 0;
  /** GET /api/audio-lists answers (200) that did not hold the pupil's class's list (the list is not class-scoped). */
  audioListMissing = 0;
}

class SessionEnded extends Error {}

function need(answer: Answer): Answer {
  if (!answer.ok) throw new SessionEnded();
  return answer;
}

export interface PupilPlan {
  pupil: Person;
  klass: MorningClass;
  password: string;
  /** Post a comment on the lesson (one session in twenty), for a teacher to moderate. */
  comments: boolean;
  chatSeconds: number;
}

export async function pupilSession(client: MorningClient, ledger: Ledger, plan: PupilPlan): Promise<boolean> {
  const { klass } = plan;
  let peer: ChatPeer | undefined;
  try {
    const login = need(
      await client.call('POST', ROUTES.login, '/api/auth/login', {
        body: { email: plan.pupil.email, password: plan.password },
        expect: 200,
      }),
    );
    const cookie = sessionCookie(login);
    if (!cookie) throw new SessionEnded();
    need(await client.call('GET', ROUTES.me, '/api/auth/me', { cookie, expect: 200 }));
    await client.call('GET', ROUTES.home, '/', { cookie, expect: 200 });
    // The lesson page: its HTML (the lesson embedded by the gateway) and the comments the page fetches.
    await client.call('GET', ROUTES.lessonPage, `/blog/${klass.slug}`, { cookie, expect: 200 });
    await client.call('GET', ROUTES.comments, `/api/posts/${klass.postId}/comments`, { cookie, expect: 200 });
    if (plan.comments) {
      const c = await client.call('POST', ROUTES.comment, `/api/posts/${klass.postId}/comments`, {
        cookie,
        body: { content: `Question about today's lesson (${randomUUID().slice(0, 8)})` },
        expect: 201,
      });
      const id = c.json<{ id?: string }>()?.id;
      if (c.ok && id) {
        ledger.comments.push(id);
        ledger.toModerate.push(id);
      }
    }
    // The quiz list, then the assigned quiz opened and submitted with an Idempotency-Key (retried with the same key
    // when no answer says what happened, as the web client does).
    const list = need(await client.call('GET', ROUTES.quizzes, '/api/text-quizzes', { cookie, expect: 200 }));
    if (!(list.json<Array<{ id: string }>>() ?? []).some((q) => q.id === klass.quizId)) {
      client.wrong(
        ROUTES.quizzes,
        200,
        'the class quiz listed',
        `quiz ${klass.quizId} not in the pupil's list`,
      );
      throw new SessionEnded();
    }
    need(
      await client.call('POST', ROUTES.attempt, `/api/text-quizzes/${klass.quizId}/attempts`, {
        cookie,
        expect: 200,
      }),
    );
    const key = randomUUID();
    ledger.grades.set(key, null);
    const answers = Array.from({ length: QUESTION_COUNT }, (_, i) => (i + plan.pupil.email.length) % 4);
    for (let attempt = 0; attempt < 3; attempt++) {
      const a = await client.call('POST', ROUTES.submit, '/api/text-quiz-grades', {
        cookie,
        body: { quizId: klass.quizId, userAnswers: answers },
        headers: { 'idempotency-key': key },
        expect: attempt === 0 ? 201 : [200, 201],
      });
      const id = a.json<{ id?: string }>()?.id;
      if (a.ok && id) {
        ledger.grades.set(key, id);
        break;
      }
      if (a.status >= 400 && a.status < 500) break;
      await sleep(500);
    }

    // The class chat: join, three messages spread over chatSeconds, each waited for until it comes back.
    const rooms = need(await client.call('GET', ROUTES.rooms, '/api/chatrooms', { cookie, expect: 200 }));
    if (!(rooms.json<Array<{ id: string }>>() ?? []).some((r) => r.id === klass.roomId)) {
      client.wrong(
        ROUTES.rooms,
        200,
        'the class room listed',
        `room ${klass.roomId} not in the pupil's list`,
      );
      throw new SessionEnded();
    }
    peer = new ChatPeer(client.gateway, cookie, plan.pupil.email.split('@')[0].slice(0, 30), klass.roomId);
    const joinStarted = performance.now();
    await peer.connect();
    try {
      await peer.waitJoined(15_000);
      client.record(ROUTES.wsJoin, joinStarted);
    } catch (error) {
      client.record(ROUTES.wsJoin, joinStarted, {
        status: 0,
        expected: 'joined',
        message: (error as Error).message,
      });
      throw new SessionEnded();
    }
    let list2 = ledger.peers.get(klass.roomId);
    if (!list2) ledger.peers.set(klass.roomId, (list2 = []));
    list2.push(peer);
    for (let m = 0; m < 3; m++) {
      if (m > 0) await sleep((plan.chatSeconds * 1000) / 2);
      await echo(client, ledger, peer);
    }
    // A moment for the last messages of others to arrive before leaving.
    await sleep(500);
    peer.close();
    peer = undefined;

    // An audio list item played through the proxy.
    const lists = await client.call('GET', ROUTES.lists, '/api/audio-lists', { cookie, expect: 200 });
    if (lists.ok && !(lists.json<Array<{ id: string }>>() ?? []).some((l) => l.id === klass.audioListId))
      ledger.audioListMissing += 1;
    const audio = await client.call(
      'GET',
      ROUTES.play,
      `/api/audio-proxy?url=${encodeURIComponent(klass.audioLink)}`,
      {
        cookie,
        expect: 200,
      },
    );
    ledger.audioBytes += audio.text.length;

    await client.call('POST', ROUTES.logout, '/api/auth/logout', { cookie, expect: 204 });
    return true;
  } catch (error) {
    if (!(error instanceof SessionEnded)) throw error;
    return false;
  } finally {
    peer?.close();
  }
}

/** Sends the peer's next message and waits for it to come back (or be refused): the echo's time is its latency. */
async function echo(client: MorningClient, ledger: Ledger, peer: ChatPeer): Promise<void> {
  const started = performance.now();
  const before = new Set(peer.pending.keys());
  peer.sendNext();
  const ref = [...peer.pending.keys()].find((k) => !before.has(k));
  if (!ref) {
    client.record(ROUTES.wsEcho, started, {
      status: 0,
      expected: 'sent',
      message: 'the socket was not joined',
    });
    return;
  }
  ledger.messagesSent += 1;
  const refusedBefore = peer.refused;
  const deadline = started + 15_000;
  while (peer.pending.has(ref) && performance.now() < deadline) await sleep(5);
  if (peer.pending.has(ref))
    client.record(ROUTES.wsEcho, started, { status: 0, expected: 'echo', message: 'no echo within 15 s' });
  else if (peer.refused > refusedBefore)
    client.record(ROUTES.wsEcho, started, {
      status: 0,
      expected: 'echo',
      message: `refused: ${peer.notices.at(-1) ?? '?'}`,
    });
  else {
    ledger.messagesConfirmed += 1;
    client.record(ROUTES.wsEcho, started);
  }
}

export interface TeacherPlan {
  klass: MorningClass;
  password: string;
  /** The district administrator's session: comments are moderated by administrators only (RequireAdmin). */
  adminCookie: string;
}

/** A teacher: signs in, opens the class's grades dashboard, and a comment is moderated. */
export async function teacherSession(
  client: MorningClient,
  ledger: Ledger,
  plan: TeacherPlan,
): Promise<boolean> {
  const { klass } = plan;
  try {
    const login = need(
      await client.call('POST', ROUTES.login, '/api/auth/login', {
        body: { email: klass.teacher.email, password: plan.password },
        expect: 200,
      }),
    );
    const cookie = sessionCookie(login);
    if (!cookie) throw new SessionEnded();
    need(await client.call('GET', ROUTES.me, '/api/auth/me', { cookie, expect: 200 }));
    // The dashboard page: the teacher's classes, the class's summary cards, its newest results, the item analysis.
    await client.call('GET', ROUTES.classes, '/api/classes', { cookie, expect: 200 });
    await client.call('GET', ROUTES.summary, `/api/text-quiz-grades/summary?classId=${klass.id}`, {
      cookie,
      expect: 200,
    });
    await client.call('GET', ROUTES.grades, `/api/text-quiz-grades?classId=${klass.id}&limit=50`, {
      cookie,
      expect: 200,
    });
    await client.call(
      'GET',
      ROUTES.analysis,
      `/api/text-quizzes/${klass.quizId}/analysis?classId=${klass.id}`,
      {
        cookie,
        expect: 200,
      },
    );
    const comment = ledger.toModerate.shift();
    if (comment !== undefined) {
      const m = await client.call('PATCH', ROUTES.moderate, `/api/comments/${comment}/status`, {
        cookie: plan.adminCookie,
        body: { status: 'approved' },
        expect: 200,
      });
      if (m.ok) ledger.moderated += 1;
    }
    await client.call('POST', ROUTES.logout, '/api/auth/logout', { cookie, expect: 204 });
    return true;
  } catch (error) {
    if (!(error instanceof SessionEnded)) throw error;
    return false;
  }
}
