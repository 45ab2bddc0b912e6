import { openAsBlob } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Client } from 'pg';
import { generateDistrict } from '@district/nest-common/testing';
import { DistrictDatabase } from '../district/district-db';
import type { AudioStandIn } from './audio-standin';
import { MorningClient, inParallel, signIn } from './client';

/**
 * The morning's district (issue #38 item 1): the districts issue's generator, a password for every pupil and
 * teacher (users.csv's column), imported through the real API as the bootstrap administrator; then each class
 * given what a morning needs, through the API as its teacher (a quiz assigned to it, its chatroom, an audio list)
 * or the administrator (its lesson: posts are the administrators').
 */
export interface DistrictSize {
  schools: number;
  teachers: number;
  students: number;
  seed: number;
}

export interface Person {
  id: string;
  email: string;
}

export interface MorningClass {
  id: string;
  title: string;
  teacher: Person;
  pupils: Person[];
  quizId: string;
  roomId: string;
  postId: string;
  slug: string;
  audioListId: string;
  audioLink: string;
}

export interface ImportOutcome {
  wallMs: number;
  status: string;
  total: number;
  created: number;
  errorCount: number;
  failure?: string;
}

export async function importDistrict(
  client: MorningClient,
  adminCookie: string,
  size: DistrictSize,
  password: string,
  scratch: string,
  giveUpMs: number,
): Promise<ImportOutcome> {
  const zip = path.join(scratch, 'district.zip');
  await generateDistrict({ ...size, password, out: zip });
  const started = Date.now();
  const form = new FormData();
  form.append('file', await openAsBlob(zip, { type: 'application/zip' }), 'district.zip');
  const res = await fetch(`${client.gateway}/api/admin/roster/imports`, {
    method: 'POST',
    headers: { cookie: adminCookie, origin: client.gateway },
    body: form,
  });
  const text = await res.text();
  if (res.status !== 202) throw new Error(`POST /api/admin/roster/imports answered ${res.status}: ${text}`);
  const { id } = JSON.parse(text) as { id: string };
  for (;;) {
    const poll = await fetch(`${client.gateway}/api/admin/roster/imports/${id}`, {
      headers: { cookie: adminCookie },
    });
    const body = (await poll.json()) as ImportOutcome;
    if (poll.status !== 200) throw new Error(`GET /api/admin/roster/imports/${id} answered ${poll.status}`);
    if (body.status === 'done' || body.status === 'failed' || Date.now() - started > giveUpMs)
      return { ...body, wallMs: Date.now() - started };
    await sleep(500);
  }
}

/** Every active class with its primary teacher and its pupils, from identity's roster tables. */
export async function readRoster(
  databaseUrl: string,
): Promise<Array<Omit<MorningClass, 'quizId' | 'roomId' | 'postId' | 'slug' | 'audioListId' | 'audioLink'>>> {
  const db = new Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    const { rows } = await db.query<{
      class_id: string;
      title: string;
      role: string;
      user_id: string;
      email: string;
    }>(
      `SELECT c.id::text AS class_id, c.title, e.role, u.id::text AS user_id, u.email
         FROM identity.classes c
         JOIN identity.enrollments e ON e.class_id = c.id AND e.active
         JOIN identity.users u ON u.id = e.user_id
        WHERE c.active
        ORDER BY c.id, e.role, u.email`,
    );
    const classes = new Map<string, { id: string; title: string; teacher?: Person; pupils: Person[] }>();
    for (const r of rows) {
      let c = classes.get(r.class_id);
      if (!c) classes.set(r.class_id, (c = { id: r.class_id, title: r.title, pupils: [] }));
      if (r.role === 'teacher') c.teacher ??= { id: r.user_id, email: r.email };
      else c.pupils.push({ id: r.user_id, email: r.email });
    }
    return [...classes.values()]
      .filter((c): c is typeof c & { teacher: Person } => c.teacher !== undefined && c.pupils.length > 0)
      .map((c) => ({ id: c.id, title: c.title, teacher: c.teacher, pupils: c.pupils }));
  } finally {
    await db.end();
  }
}

export async function waitProjections(databaseUrl: string, giveUpMs: number): Promise<void> {
  const db = await DistrictDatabase.connect(databaseUrl);
  try {
    const outcome = await db.waitConsistent(Date.now(), 500, giveUpMs);
    const behind = outcome.services.filter((s) => s.consistentAfterMs === null);
    if (behind.length > 0)
      throw new Error(`roster projections never matched identity's: ${JSON.stringify(outcome)}`);
  } finally {
    await db.close();
  }
}

const QUESTIONS = [
  { question: '¿Cómo se dice "hello"?', options: ['Hola', 'Adiós', 'Gracias', 'Perdón'], correctAnswer: 0 },
  {
    question: '¿Cómo se dice "thank you"?',
    options: ['Por favor', 'Gracias', 'De nada', 'Lo siento'],
    correctAnswer: 1,
  },
  {
    question: '¿Cómo se dice "good morning"?',
    options: ['Buenas noches', 'Hasta luego', 'Buenos días', 'Bienvenido'],
    correctAnswer: 2,
  },
];
export const QUESTION_COUNT = QUESTIONS.length;

/**
 * Gives each class its quiz, chatroom, audio list (as its teacher) and lesson (as the administrator); `width` calls at
 * a time. Teachers sign in once each.
 */
export async function provisionClasses(
  client: MorningClient,
  adminCookie: string,
  classes: Awaited<ReturnType<typeof readRoster>>,
  password: string,
  audio: AudioStandIn,
  width: number,
  progress: (m: string) => void,
): Promise<MorningClass[]> {
  const teacherCookies = new Map<string, Promise<string>>();
  const cookieOf = (t: Person) => {
    let c = teacherCookies.get(t.id);
    if (!c) teacherCookies.set(t.id, (c = signIn(client, t.email, password)));
    return c;
  };
  const out: MorningClass[] = new Array(classes.length);
  let done = 0;
  const must = async (
    what: string,
    answer: Promise<import('./client').Answer>,
  ): Promise<Record<string, unknown>> => {
    const a = await answer;
    if (!a.ok) throw new Error(`${what} answered ${a.status}: ${a.text.slice(0, 300)}`);
    return a.json() ?? {};
  };
  await inParallel(classes, width, async (c, i) => {
    const teacher = await cookieOf(c.teacher);
    const quiz = await must(
      `the quiz of ${c.id}`,
      client.call('POST', 'setup', '/api/text-quizzes', {
        cookie: teacher,
        body: {
          title: `Morning check: ${c.title}`.slice(0, 100),
          maxAttempts: 3,
          questions: QUESTIONS,
          classIds: [c.id],
        },
        expect: 201,
      }),
    );
    const room = await must(
      `the chatroom of ${c.id}`,
      client.call('POST', 'setup', '/api/admin/chatrooms', {
        cookie: teacher,
        body: { name: `Class ${i + 1}`, description: c.title, classId: c.id },
        expect: 201,
      }),
    );
    const file = audio.files[i % audio.files.length];
    const link = audio.link(file);
    const list = await must(
      `the audio list of ${c.id}`,
      client.call('POST', 'setup', '/api/audio-lists', {
        cookie: teacher,
        body: {
          title: `Listening: ${c.title}`.slice(0, 100),
          description: '',
          audioFiles: [{ name: file, url: link }],
        },
        expect: 201,
      }),
    );
    const post = await must(
      `the lesson of ${c.id}`,
      client.call('POST', 'setup', '/api/posts', {
        cookie: adminCookie,
        body: {
          title: `Lesson ${i + 1}: ${c.title}`.slice(0, 200),
          content: `<p>Today in ${c.title}: greetings. Listen, then take the quiz.</p>`,
          excerpt: 'Greetings',
          status: 'published',
        },
        expect: 201,
      }),
    );
    out[i] = {
      ...c,
      quizId: String(quiz.id),
      roomId: String(room.id),
      postId: String(post.id),
      slug: String(post.slug),
      audioListId: String(list.id),
      audioLink: link,
    };
    if (++done % 200 === 0) progress(`provisioned ${done} of ${classes.length} classes`);
  });
  return out;
}
