import { randomUUID } from 'node:crypto';
import { Module, type DynamicModule } from '@nestjs/common';
import { Subjects, type RosterClassChangedEvent, type RosterSchoolChangedEvent } from '@district/contracts';
import { DataSource } from 'typeorm';
import { PlatformModule } from '../app/platform.module';
import { startService, type RunningService } from '../app/create-service-app';
import type { PlatformRuntime, ServiceDefinition } from '../runtime/runtime';
import { createTestRuntime, dropSchema, TEST_DATABASE_URL, uniqueSchema, waitFor } from '../testing';
import { RosterChanges } from './roster-projection.module';
import { RosterScope, type RosterViewer } from './roster-scope';

jest.setTimeout(60_000);

/** A service that keeps the roster and nothing else: what the platform gives it for `roster: true` (ADR 0042). */
@Module({})
class KeeperModule {
  static forRoot(runtime: PlatformRuntime, schema: string): DynamicModule {
    return {
      module: KeeperModule,
      imports: [
        PlatformModule.forService({
          name: 'keeper',
          runtime,
          schema,
          entities: [],
          migrations: [],
          roster: true,
        }),
      ],
    };
  }
}

const schema = uniqueSchema('keeper');
const define = (): ServiceDefinition => ({
  name: 'keeper',
  dependsOn: [],
  defaultPort: 0,
  routes: [],
  rootModule: (runtime) => KeeperModule.forRoot(runtime, schema),
});

let runtime: ReturnType<typeof createTestRuntime>;
let service: RunningService;
let scope: RosterScope;
let dataSource: DataSource;
const changed: RosterClassChangedEvent[] = [];

const id = () => randomUUID();
const schoolA = id();
const schoolB = id();
const classA1 = id();
const classA2 = id();
const classB1 = id();
const teacherA1 = id();
const teacherB1 = id();
const adminA = id();
const pupilA1 = id();
const pupilA2 = id();
const pupilB1 = id();
const viewer = (userId: string, extra: Partial<RosterViewer> = {}): RosterViewer => ({
  id: userId,
  approved: true,
  isAdmin: false,
  ...extra,
});

let version = 0;
function classEvent(
  classId: string,
  schoolId: string,
  teacherIds: string[],
  studentIds: string[],
  extra: Partial<RosterClassChangedEvent> = {},
): RosterClassChangedEvent {
  version += 1;
  return {
    classId,
    schoolId,
    title: `Class ${classId.slice(0, 4)}`,
    active: true,
    version,
    teacherIds,
    studentIds,
    ...extra,
  };
}
function schoolEvent(schoolId: string, adminIds: string[]): RosterSchoolChangedEvent {
  version += 1;
  return { schoolId, name: `School ${schoolId.slice(0, 4)}`, active: true, version, adminIds };
}
async function publish(subject: string, payload: unknown): Promise<void> {
  await runtime.bus.publish(subject, payload);
}
async function memberCount(): Promise<number> {
  const [row] = await dataSource.query(`SELECT count(*)::int AS n FROM roster_members`);
  return row.n;
}

beforeAll(async () => {
  runtime = createTestRuntime({ demo: false, env: {} });
  service = await startService(define(), runtime, { port: 0, host: '127.0.0.1' });
  scope = service.app.get(RosterScope);
  dataSource = service.app.get(DataSource);
  service.app.get(RosterChanges).onClass(async (_manager, event) => {
    changed.push(event);
  });
});
afterAll(async () => {
  await service?.close();
  await runtime?.dispose();
  await dropSchema(TEST_DATABASE_URL, schema);
});

describe('the roster projection a service keeps (ADR 0042)', () => {
  it('keeps the spec’s one-school rights while the installation has no class', async () => {
    expect(await scope.scopeOf(viewer(teacherA1))).toEqual({ all: true, classIds: [], schoolIds: [] });
    expect(await scope.sees(viewer(teacherA1), pupilB1)).toBe(true);
    expect(await scope.scopeOf(viewer(teacherA1, { approved: false }))).toMatchObject({ all: false });
  });

  it('applies class and school snapshots and scopes teachers, school administrators and district administrators', async () => {
    await publish(Subjects.identityRosterSchoolChanged, schoolEvent(schoolA, [adminA.toUpperCase()]));
    await publish(Subjects.identityRosterSchoolChanged, schoolEvent(schoolB, []));
    await publish(Subjects.identityRosterClassChanged, classEvent(classA1, schoolA, [teacherA1], [pupilA1]));
    await publish(Subjects.identityRosterClassChanged, classEvent(classA2, schoolA, [], [pupilA2]));
    await publish(Subjects.identityRosterClassChanged, classEvent(classB1, schoolB, [teacherB1], [pupilB1]));
    await waitFor(async () => (await memberCount()) === 5, 'five members');

    expect(await scope.scopeOf(viewer(teacherA1))).toEqual({
      all: false,
      classIds: [classA1],
      schoolIds: [],
    });
    expect(await scope.sees(viewer(teacherA1), pupilA1)).toBe(true);
    expect(await scope.sees(viewer(teacherA1), pupilA2)).toBe(false);
    expect(await scope.sees(viewer(teacherA1), pupilB1)).toBe(false);
    expect(await scope.sees(viewer(teacherB1), pupilB1.toUpperCase())).toBe(true);
    // The school administrator sees every class of their school, not the other school's.
    expect(await scope.sees(viewer(adminA), pupilA1)).toBe(true);
    expect(await scope.sees(viewer(adminA), pupilA2)).toBe(true);
    expect(await scope.sees(viewer(adminA), pupilB1)).toBe(false);
    expect(await scope.managesClass(viewer(adminA), classA2)).toBe(true);
    expect(await scope.managesClass(viewer(adminA), classB1)).toBe(false);
    expect(await scope.managesClass(viewer(teacherA1), classA1.toUpperCase())).toBe(true);
    expect(await scope.managesClass(viewer(teacherA1), classA2)).toBe(false);
    // A district administrator sees everyone; a suspended one no one.
    expect(await scope.sees(viewer(id(), { isAdmin: true }), pupilB1)).toBe(true);
    expect(await scope.sees(viewer(id(), { isAdmin: true, approved: false }), pupilB1)).toBe(false);
    // A teacher without classes in a district sees no one.
    expect(await scope.scopeOf(viewer(id()))).toEqual({ all: false, classIds: [], schoolIds: [] });
    expect(await scope.classIdsOf(pupilA1)).toEqual([classA1]);
    expect(await scope.membersOf(classA1, 'student')).toEqual([pupilA1]);
    expect(await scope.inAnyClass(pupilA2, [classA1, classA2])).toBe(true);
    expect(await scope.inAnyClass(pupilB1, [classA1, classA2])).toBe(false);
  });

  it('keeps the SIS ids of a class and its students for the gradebook export', async () => {
    const classC = id();
    await publish(
      Subjects.identityRosterClassChanged,
      classEvent(classC, schoolB, [teacherB1], [pupilB1], {
        sourcedId: 'cls-77',
        memberSourcedIds: { [pupilB1.toUpperCase()]: 'stu-9', [teacherB1]: 'tch-1' },
      }),
    );
    await waitFor(async () => (await scope.membersOf(classC)).length === 2, 'class C applied');
    const ids = await scope.sourcedIdsOf(classC);
    expect(ids.classSourcedId).toBe('cls-77');
    expect([...ids.students]).toEqual([[pupilB1, 'stu-9']]);
  });

  it('ignores an older or repeated snapshot, so order and redelivery do not matter', async () => {
    const newer = classEvent(classA1, schoolA, [teacherA1], [pupilA1, pupilA2]);
    const older = { ...newer, version: newer.version - 1000, studentIds: [] };
    await publish(Subjects.identityRosterClassChanged, newer);
    await waitFor(async () => (await scope.membersOf(classA1, 'student')).length === 2, 'two pupils in A1');
    const before = changed.length;
    await publish(Subjects.identityRosterClassChanged, older);
    await publish(Subjects.identityRosterClassChanged, newer);
    // A later snapshot of another class shows both were handled before it.
    await publish(Subjects.identityRosterClassChanged, classEvent(classB1, schoolB, [teacherB1], [pupilB1]));
    await waitFor(() => changed.length === before + 1, 'B1 applied');
    expect((await scope.membersOf(classA1, 'student')).sort()).toEqual([pupilA1, pupilA2].sort());
  });

  it('ends a class and drops a deleted person', async () => {
    await publish(
      Subjects.identityRosterClassChanged,
      classEvent(classA2, schoolA, [], [], { active: false }),
    );
    await waitFor(async () => (await scope.classIdsOf(pupilA2)).length === 1, 'A2 ended');
    expect(await scope.classIdsOf(pupilA2)).toEqual([classA1]);
    expect(await scope.managesClass(viewer(adminA), classA2)).toBe(false);
    await publish(Subjects.identityUserDeleted, { userId: pupilA1 });
    await waitFor(async () => (await scope.classIdsOf(pupilA1)).length === 0, 'pupil forgotten');
    expect(await scope.sees(viewer(teacherA1), pupilA1)).toBe(false);
  });
});
