import { randomBytes, randomUUID } from 'node:crypto';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { Client } from 'pg';
import pino from 'pino';
import { Subjects, type Grade, type GradeRecordedEvent, type Quiz } from '@district/contracts';
import {
  NatsJetStreamBus,
  outboxChannel,
  type BusHandler,
  type BusMessage,
  type BusSubscription,
  type EventBus,
  type PublishOptions,
  type SubscribeOptions,
} from '@district/nest-common';
import { TEST_DATABASE_URL, waitFor, type HttpClient } from '@district/nest-common/testing';
import { startAssessment, type AssessmentTestApp } from './support/assessment-app';

/**
 * A submitted grade's event end to end on the real NATS JetStream: the HTTP API stores the result through
 * `submit_grade`, which enqueues through the platform's `outbox_enqueue` (ADR 0037); the relay hears the commit and
 * publishes; a consumer with a durable of its own on another connection receives it.
 *
 * The run's events travel under a prefix of its own (`<run>.assessment.grade.recorded.v1`) in a stream of its own,
 * so neither a cluster running on this server nor another run sees them, and the stream is deleted at the end.
 */
jest.setTimeout(60_000);

const NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
const run = `gradenats${Date.now().toString(36)}${randomBytes(3).toString('hex')}`;
const streamName = run.toUpperCase();
const logger = pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' });

/** The NATS adapter with every event subject under the run's prefix; handlers see the subjects unprefixed. */
class RunPrefixedBus implements EventBus {
  private constructor(private readonly nats: NatsJetStreamBus) {}

  static async connect(name: string): Promise<RunPrefixedBus> {
    return new RunPrefixedBus(
      await NatsJetStreamBus.connect({
        url: NATS_URL,
        name,
        streamName,
        subjects: [`${run}.>`],
        requestPrefix: `_rpc${run}`,
        logger,
      }),
    );
  }

  publish(subject: string, data: unknown, options?: PublishOptions): Promise<void> {
    return this.nats.publish(`${run}.${subject}`, data, options);
  }

  subscribe<T = unknown>(
    subject: string,
    handler: BusHandler<T>,
    options: SubscribeOptions,
  ): Promise<BusSubscription> {
    return this.nats.subscribe<T>(
      `${run}.${subject}`,
      (m) => handler({ ...m, subject: m.subject.slice(run.length + 1) }),
      options,
    );
  }

  request: EventBus['request'] = (...args) => this.nats.request(...args);
  reply: EventBus['reply'] = (...args) => this.nats.reply(...args);
  isReady = () => this.nats.isReady();
  close = () => this.nats.close();
}

let app: AssessmentTestApp;
let serviceBus: RunPrefixedBus;
let consumerBus: RunPrefixedBus;
let teacher: HttpClient;

beforeAll(async () => {
  serviceBus = await RunPrefixedBus.connect('assessment');
  consumerBus = await RunPrefixedBus.connect('consumer');
  app = await startAssessment({ runtime: { bus: serviceBus } });
  teacher = (await app.signIn('teacher')).client;
});

afterAll(async () => {
  await app?.close();
  await consumerBus?.close();
  await serviceBus?.close();
  const nc = await connect({ servers: NATS_URL });
  await (await jetstreamManager(nc)).streams.delete(streamName).catch(() => undefined);
  await nc.close();
});

async function quizAndStudent(): Promise<{ quiz: Quiz; student: HttpClient }> {
  const res = await teacher.post<Quiz>('/api/text-quizzes', {
    title: `Colores ${randomUUID().slice(0, 6)}`,
    maxAttempts: 1,
    questions: [{ question: '¿Rojo?', options: ['red', 'blue', 'green', 'black'], correctAnswer: 0 }],
  });
  if (res.status !== 201) throw new Error(`quiz: ${res.status} ${res.text}`);
  return { quiz: res.body, student: (await app.signIn('student')).client };
}

it('delivers a grade submitted through the HTTP API to a consumer over NATS, once', async () => {
  const events: BusMessage<GradeRecordedEvent>[] = [];
  const subscription = await consumerBus.subscribe<GradeRecordedEvent>(
    Subjects.assessmentGradeRecorded,
    async (m) => void events.push(m),
    { durable: `consumer-${run}` },
  );
  try {
    const { quiz, student } = await quizAndStudent();
    const stored = await student.post<Grade>('/api/text-quiz-grades', { quizId: quiz.id, userAnswers: [0] });
    expect(stored.status).toBe(201);
    await waitFor(() => events.length > 0, 'the grade’s event over NATS', 15_000);
    expect(events.map((e) => e.data)).toEqual([
      {
        grade: {
          id: stored.body.id,
          kind: 'text',
          quizId: quiz.id,
          userId: stored.body.userId,
          score: 100,
          passed: true,
          correctAnswers: 1,
          totalQuestions: 1,
          createdAt: stored.body.createdAt,
        },
      },
    ]);
    expect(events[0].subject).toBe(Subjects.assessmentGradeRecorded);
    // The bus message id is the outbox row's, now marked published.
    const [row] = await app.dataSource.query(
      `SELECT id, published_at FROM "${app.schema}"."outbox" WHERE payload -> 'grade' ->> 'id' = $1`,
      [stored.body.id],
    );
    expect(row.id).toBe(events[0].id);
    await waitFor(
      async () =>
        (
          await app.dataSource.query(`SELECT published_at FROM "${app.schema}"."outbox" WHERE id = $1`, [
            row.id,
          ])
        )[0].published_at !== null,
      'the row marked published',
    );
  } finally {
    await subscription.unsubscribe();
  }
});

it('announces a submission’s event on the platform’s outbox channel at its commit (submit_grade calls outbox_enqueue)', async () => {
  const listener = new Client({ connectionString: TEST_DATABASE_URL });
  await listener.connect();
  const heard: string[] = [];
  listener.on('notification', (n) => void heard.push(n.channel));
  try {
    await listener.query(`LISTEN "${outboxChannel(app.schema)}"`);
    const { quiz, student } = await quizAndStudent();
    // The quiz's own event (quiz created) is announced too: heard before the submission, so it is not taken for it.
    await waitFor(() => heard.length > 0, 'the quiz’s notification', 5_000);
    await new Promise((resolve) => setTimeout(resolve, 200));
    heard.length = 0;
    const stored = await student.post<Grade>('/api/text-quiz-grades', { quizId: quiz.id, userAnswers: [1] });
    expect(stored.status).toBe(201);
    await waitFor(() => heard.length > 0, 'the commit’s notification', 5_000);
    expect(new Set(heard)).toEqual(new Set([outboxChannel(app.schema)]));
    // A submission refused by the attempt limit stores nothing and announces nothing.
    heard.length = 0;
    const refused = await student.post('/api/text-quiz-grades', { quizId: quiz.id, userAnswers: [0] });
    expect(refused.status).toBe(409);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(heard).toEqual([]);
  } finally {
    await listener.end();
  }
});
