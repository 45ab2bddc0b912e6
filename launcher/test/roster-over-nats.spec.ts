import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { rosterImportSchema, type RosterImport } from '@district/contracts';
import { defineAssessmentService } from '@district/assessment';
import { defineChatService } from '@district/chat';
import { defineClassroomService } from '@district/classroom';
import { defineContentService } from '@district/content';
import { defineIdentityService } from '@district/identity';
import {
  createLogger,
  NatsJetStreamBus,
  startService,
  type RunningService,
  type ServiceDefinition,
} from '@district/nest-common';
import {
  createTestRuntime,
  districtZipStream,
  dropSchema,
  HttpClient,
  TEST_DATABASE_URL,
  uniqueSchema,
  waitFor,
  type DistrictOptions,
} from '@district/nest-common/testing';
import { DataSource } from 'typeorm';
import { streamSubjects } from '../src/targets';
import { startPrivateNats } from './support/cluster-stack';

/**
 * The roster's events over real NATS JetStream, from publisher to every consumer's effect (ADR 0042): a district
 * administrator uploads a OneRoster zip to identity; identity's outbox relays the class and school snapshots; chat,
 * assessment and classroom each keep the projection (as many members as identity has active enrolments), and a
 * delta that ends enrolments reaches them too.
 */
jest.setTimeout(180_000);

const ADMIN = { email: 'roster.admin@district.test', password: 'roster-admin-pass-1', name: 'Rita Roster' };
const schemas = {
  identity: uniqueSchema('identity'),
  content: uniqueSchema('content'),
  chat: uniqueSchema('chat'),
  assessment: uniqueSchema('assessment'),
  classroom: uniqueSchema('classroom'),
};
const registry: ServiceDefinition[] = [
  defineIdentityService({ schema: schemas.identity }),
  defineContentService({ schema: schemas.content }),
  defineChatService({ schema: schemas.chat }),
  defineAssessmentService({ schema: schemas.assessment }),
  defineClassroomService({ schema: schemas.classroom }),
];
const running: RunningService[] = [];
let runtime: ReturnType<typeof createTestRuntime>;
let bus: NatsJetStreamBus;
let nats: { url: string; stop(): Promise<void> };
let natsDir: string;
let admin: HttpClient;

beforeAll(async () => {
  natsDir = await mkdtemp(path.join(os.tmpdir(), 'roster-nats-'));
  nats = await startPrivateNats(natsDir);
  bus = await NatsJetStreamBus.connect({
    url: nats.url,
    subjects: streamSubjects(registry),
    logger: createLogger('roster-nats-test', 'silent'),
  });
  runtime = createTestRuntime({
    bus,
    env: { ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password, ADMIN_NAME: ADMIN.name },
  });
  for (const definition of registry)
    running.push(await startService(definition, runtime, { port: 0, host: '127.0.0.1' }));
  admin = new HttpClient(runtime.publicUrl, {}, { [new URL(runtime.publicUrl).origin]: running[0].url });
  expect((await admin.post('/api/auth/login', ADMIN)).status).toBe(200);
});

afterAll(async () => {
  for (const service of running.reverse()) await service.close();
  await runtime?.dispose();
  await bus?.close();
  await nats?.stop();
  if (natsDir) await rm(natsDir, { recursive: true, force: true });
  for (const schema of Object.values(schemas)) await dropSchema(TEST_DATABASE_URL, schema);
});

const dataSourceOf = (name: string) =>
  (running.find((s) => s.name === name) as RunningService).app.get(DataSource);

async function count(service: string, sql: string): Promise<number> {
  const [row] = (await dataSourceOf(service).query(sql)) as { n: number }[];
  return Number(row.n);
}

/** What identity holds, as each projection should: active classes' active members. */
const identityMembers = () =>
  count(
    'identity',
    `SELECT count(DISTINCT (e.class_id, e.user_id))::int AS n FROM enrollments e
     JOIN classes c ON c.id = e.class_id JOIN users u ON u.id = e.user_id WHERE e.active AND c.active`,
  );
const projectedMembers = (service: string) =>
  count(
    service,
    `SELECT count(*)::int AS n FROM roster_members m JOIN roster_classes c ON c.id = m.class_id WHERE c.active`,
  );

async function importZip(options: DistrictOptions): Promise<RosterImport> {
  const { stream } = districtZipStream(options);
  const bytes = Buffer.from(await new Response(stream).arrayBuffer());
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(bytes)], { type: 'application/zip' }), 'district.zip');
  const accepted = await admin.request<{ id: string }>('POST', '/api/admin/roster/imports', {
    multipart: form,
  });
  expect(accepted.status).toBe(202);
  let found: RosterImport | undefined;
  await waitFor(
    async () => {
      const res = await admin.get<RosterImport>(`/api/admin/roster/imports/${accepted.body.id}`);
      found = rosterImportSchema.parse(res.body);
      return found.status === 'done' || found.status === 'failed';
    },
    'the import to end',
    90_000,
  );
  return found as RosterImport;
}

async function projectionsFollow(what: string): Promise<void> {
  const expected = await identityMembers();
  expect(expected).toBeGreaterThan(0);
  for (const service of ['chat', 'assessment', 'classroom'])
    await waitFor(async () => (await projectedMembers(service)) === expected, `${service}'s ${what}`, 30_000);
}

const district: DistrictOptions = { seed: 7, schools: 2, teachers: 6, students: 60, compress: true };

describe('the roster over real NATS JetStream (ADR 0042)', () => {
  it('reaches every service’s projection from one import, and a delta that ends enrolments too', async () => {
    const bulk = await importZip(district);
    expect(bulk).toMatchObject({ status: 'done', errorCount: 0 });
    expect(bulk.created).toBeGreaterThan(60);
    await projectionsFollow('bulk import');
    const schools = await count('identity', `SELECT count(*)::int AS n FROM schools`);
    for (const service of ['chat', 'assessment', 'classroom'])
      expect(await count(service, `SELECT count(*)::int AS n FROM roster_schools`)).toBe(schools);

    const before = await identityMembers();
    const delta = await importZip({ ...district, deltaPercent: 10 });
    expect(delta).toMatchObject({ status: 'done', errorCount: 0 });
    expect(delta.updated + delta.created + delta.deactivated).toBeGreaterThan(0);
    await projectionsFollow('delta');
    expect(await identityMembers()).not.toBe(before);
  });
});
