import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Inject, Injectable, Module, type DynamicModule } from '@nestjs/common';
import {
  auditRecord,
  PeopleDataSubjects,
  type AuditLogPage,
  type AuditStamp,
  type UserExportSections,
} from '@district/contracts';
import { defineAssessmentService } from '@district/assessment';
import { defineChatService } from '@district/chat';
import { defineClassroomService } from '@district/classroom';
import { defineContentService } from '@district/content';
import { defineIdentityService } from '@district/identity';
import {
  AuditTrail,
  createLogger,
  InProcessBus,
  NatsJetStreamBus,
  PeopleDataModule,
  peopleDataParticipants,
  PlatformModule,
  startService,
  type EventBus,
  type PeopleDataDeclaration,
  type PeopleDataHolder,
  type PlatformRuntime,
  type RunningService,
  type ServiceDefinition,
} from '@district/nest-common';
import {
  createTestRuntime,
  dropSchema,
  HttpClient,
  TEST_DATABASE_URL,
  uniqueSchema,
  uniqueToken,
  waitFor,
} from '@district/nest-common/testing';
import { DataSource, type EntityManager, type MigrationInterface, type QueryRunner } from 'typeorm';
import { streamSubjects } from '../src/targets';
import { startPrivateNats } from './support/cluster-stack';

/**
 * ADR 0036's promise, kept by a test: a sixth service that holds people's data is its own folder plus one registry
 * line. `library` below is such a service, written here as its folder would be (a migration, a repository, a
 * holder, a use case that audits, a root module and its registry entry), with no edit anywhere else. It runs
 * beside the real five, each in a throwaway schema, on the in-process bus and on real NATS JetStream (a stream and
 * request prefix of this run's own); identity is told only the registry's participants, as the launcher tells it.
 * A loan made in the library reaches identity's audit log, the admin's export of the borrower holds the library's
 * section, and deleting the borrower empties it (the erasure handler the platform runs for the holder).
 */
jest.setTimeout(120_000);

// ---- services/library/src, as its own folder would hold it -------------------------------------------------------

class CreateLoans1765100000000 implements MigrationInterface {
  name = 'CreateLoans1765100000000';
  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `CREATE TABLE loans (id uuid PRIMARY KEY DEFAULT gen_random_uuid(), user_id uuid NOT NULL, title text NOT NULL)`,
    );
  }
  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE loans`);
  }
}

@Injectable()
class LoansRepository {
  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}
  async insert(tx: EntityManager, userId: string, title: string): Promise<string> {
    const [row] = (await tx.query(`INSERT INTO loans (user_id, title) VALUES ($1, $2) RETURNING id`, [
      userId,
      title,
    ])) as { id: string }[];
    return row.id;
  }
  of(userId: string): Promise<Record<string, unknown>[]> {
    return this.dataSource.query(`SELECT id, title FROM loans WHERE user_id = $1 ORDER BY title`, [userId]);
  }
  async deleteOf(tx: EntityManager, userId: string): Promise<void> {
    await tx.query(`DELETE FROM loans WHERE user_id = $1`, [userId]);
  }
}

@Injectable()
class LibraryPeopleData implements PeopleDataHolder {
  constructor(@Inject(LoansRepository) private readonly loans: LoansRepository) {}
  async exportSections(userId: string): Promise<UserExportSections> {
    return { loans: await this.loans.of(userId) };
  }
  forget(tx: EntityManager, userId: string): Promise<void> {
    return this.loans.deleteOf(tx, userId);
  }
}

const LIBRARY_PEOPLE_DATA: PeopleDataDeclaration = { audit: true, holder: LibraryPeopleData };

/** A librarian lends a book: the loan and its audit record in one transaction. */
@Injectable()
class Loans {
  constructor(
    @Inject(DataSource) private readonly dataSource: DataSource,
    @Inject(LoansRepository) private readonly loans: LoansRepository,
    @Inject(AuditTrail) private readonly audit: AuditTrail,
  ) {}
  lend(by: AuditStamp, borrower: { id: string; name: string }, title: string): Promise<string> {
    return this.dataSource.transaction(async (tx) => {
      const id = await this.loans.insert(tx, borrower.id, title);
      await this.audit.record(
        tx,
        auditRecord(by, 'user.approved', { type: 'user', id: borrower.id, label: borrower.name }, { title }),
      );
      return id;
    });
  }
}

@Module({
  imports: [PeopleDataModule.forService('library', LIBRARY_PEOPLE_DATA)],
  providers: [LoansRepository, LibraryPeopleData, Loans],
})
class LibraryUsersModule {}

@Module({})
class LibraryModule {
  static forRoot(runtime: PlatformRuntime, schema: string): DynamicModule {
    return {
      module: LibraryModule,
      imports: [
        PlatformModule.forService({
          name: 'library',
          runtime,
          schema,
          entities: [],
          migrations: [CreateLoans1765100000000],
        }),
        LibraryUsersModule,
      ],
    };
  }
}

const defineLibraryService = (schema: string): ServiceDefinition => ({
  name: 'library',
  dependsOn: ['identity'],
  defaultPort: 0,
  routes: [],
  peopleData: LIBRARY_PEOPLE_DATA,
  rootModule: (runtime) => LibraryModule.forRoot(runtime, schema),
});

// ---- the test -----------------------------------------------------------------------------------------------------

const ADMIN = { email: 'librarian.admin@district.test', password: 'library-admin-1', name: 'Lee Librarian' };

describe.each(['in-process', 'nats'] as const)(
  'a sixth service holding people’s data, on the %s bus',
  (kind) => {
    const schemas = {
      identity: uniqueSchema('identity'),
      content: uniqueSchema('content'),
      chat: uniqueSchema('chat'),
      assessment: uniqueSchema('assessment'),
      classroom: uniqueSchema('classroom'),
      library: uniqueSchema('library'),
    };
    /** The district's registry plus one line. */
    const registry: ServiceDefinition[] = [
      defineIdentityService({ schema: schemas.identity }),
      defineContentService({ schema: schemas.content }),
      defineChatService({ schema: schemas.chat }),
      defineAssessmentService({ schema: schemas.assessment }),
      defineClassroomService({ schema: schemas.classroom }),
      defineLibraryService(schemas.library),
    ];
    const running: RunningService[] = [];
    let runtime: ReturnType<typeof createTestRuntime>;
    let bus: EventBus;
    let nats: { url: string; stop(): Promise<void> } | undefined;
    let natsDir: string | undefined;
    let admin: HttpClient;

    beforeAll(async () => {
      if (kind === 'nats') {
        // A NATS of its own: the stream and durables have the district's fixed names (see cluster-stack.ts).
        natsDir = await mkdtemp(path.join(os.tmpdir(), 'people-data-'));
        nats = await startPrivateNats(natsDir);
      }
      bus = nats
        ? await NatsJetStreamBus.connect({
            url: nats.url,
            // The registry's subjects, as the launcher derives them: `library.>` among them.
            subjects: streamSubjects(registry),
            logger: createLogger('people-data-test', 'silent'),
          })
        : new InProcessBus({ logger: createLogger('people-data-test', 'silent') });
      runtime = createTestRuntime({
        bus,
        env: { ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password, ADMIN_NAME: ADMIN.name },
        // What the launcher hands every service: the registry's participants, the library among them.
        peopleData: peopleDataParticipants(registry),
      });
      for (const definition of registry)
        running.push(await startService(definition, runtime, { port: 0, host: '127.0.0.1' }));
      admin = client();
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

    const client = () =>
      new HttpClient(runtime.publicUrl, {}, { [new URL(runtime.publicUrl).origin]: running[0].url });
    const library = () => running.find((s) => s.name === 'library') as RunningService;
    const auditOf = async (targetId: string) =>
      (await admin.get<AuditLogPage>(`/api/admin/audit-log?target=${targetId}`)).body.entries;

    it('is a participant by its registry line alone: its audit reaches identity, its section the export, its erasure runs', async () => {
      expect(peopleDataParticipants(registry).find((p) => p.service === 'library')).toEqual({
        service: 'library',
        audit: true,
        export: true,
      });
      const registered = await client().post<{ id: string; name: string }>('/api/auth/register', {
        name: 'Bea Borrower',
        username: `bea${uniqueToken()}`,
        email: `bea.${uniqueToken()}@district.test`,
        password: 'borrower-pass-1',
        role: 'teacher',
      });
      expect(registered.status).toBe(201);
      const borrower = registered.body;
      const me = (await admin.get<{ id: string }>('/api/auth/me')).body;

      // An action in the library, audited in its transaction, recorded by identity's one wildcard durable.
      await library()
        .app.get(Loans)
        .lend({ actorId: me.id, actorName: ADMIN.name, ip: '198.51.100.9' }, borrower, 'Don Quijote');
      let entries: Awaited<ReturnType<typeof auditOf>> = [];
      await waitFor(
        async () => (entries = await auditOf(borrower.id)).some((e) => e.service === 'library'),
        'library audit entry',
        20_000,
      );
      expect(entries.find((e) => e.service === 'library')).toMatchObject({
        service: 'library',
        action: 'user.approved',
        actorId: me.id,
        targetId: borrower.id,
        targetLabel: 'Bea Borrower',
        details: { title: 'Don Quijote' },
        ip: '198.51.100.9',
      });

      // The export asks every holder the registry lists, the library too.
      const exported = await admin.get<{ services: Record<string, UserExportSections> }>(
        `/api/admin/users/${borrower.id}/export`,
      );
      expect(exported.status).toBe(200);
      expect(Object.keys(exported.body.services).sort()).toEqual([
        'assessment',
        'chat',
        'classroom',
        'content',
        'identity',
        'library',
      ]);
      expect(exported.body.services.library).toEqual({
        loans: [{ id: expect.any(String), title: 'Don Quijote' }],
      });

      // Deleting the person reaches the library's holder through the platform's erasure handler.
      expect((await admin.delete(`/api/users/${borrower.id}`)).status).toBeLessThan(300);
      const loans = library().app.get(DataSource);
      await waitFor(
        async () =>
          Number(
            (
              (await loans.query(`SELECT count(*) AS n FROM loans WHERE user_id = $1`, [borrower.id])) as {
                n: string;
              }[]
            )[0].n,
          ) === 0,
        "the borrower's loans removed",
        20_000,
      );
    });

    it('records an audit event only from a registered participant naming itself', async () => {
      const target = randomUUID();
      const record = auditRecord({ actorId: randomUUID(), actorName: 'Mallory', ip: null }, 'user.deleted', {
        type: 'user',
        id: target,
        label: 'forged',
      });
      // A participant's subject claiming another service, and a service the registry does not list.
      await bus.publish(PeopleDataSubjects.auditRecorded('library'), { service: 'content', record });
      if (kind === 'in-process')
        await bus.publish(PeopleDataSubjects.auditRecorded('ghost'), { service: 'ghost', record });
      // Then a genuine one behind them: once it is in, the two before it have been handled.
      await bus.publish(PeopleDataSubjects.auditRecorded('library'), {
        service: 'library',
        record: { ...record, targetLabel: 'genuine' },
      });
      let entries: Awaited<ReturnType<typeof auditOf>> = [];
      await waitFor(async () => (entries = await auditOf(target)).length > 0, 'the genuine entry', 20_000);
      expect(entries.map((e) => [e.service, e.targetLabel])).toEqual([['library', 'genuine']]);
    });
  },
);
