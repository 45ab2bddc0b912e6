import { randomUUID } from 'node:crypto';
import { ClassroomMessages as M, SubjectSchemas, Subjects, type Subject } from '@district/contracts';
import type { BusMessage } from '@district/nest-common';
import type { HttpClient } from '@district/nest-common/testing';
import { publishClass, publishSchool, waitFor } from '@district/nest-common/testing';
import { startClassroom, type ClassroomTestApp } from './support/classroom-app';

/**
 * Items gain the school (issue #36): filed under the creator's school from classroom's roster projection, changed
 * by their creator, a district administrator, or an administrator of their school — by nobody else.
 */
jest.setTimeout(60_000);

interface Person {
  id: string;
  client: HttpClient;
}
interface Item {
  id: string;
  schoolId?: string | null;
  canEdit: boolean;
}

let app: ClassroomTestApp;
let creator: Person;
let colleague: Person;
let headOfA: Person;
let headOfB: Person;
let district: Person;
let twoSchools: Person;
const schoolA = randomUUID();
const schoolB = randomUUID();
const events: BusMessage[] = [];

async function signIn(persona: 'teacher' | 'admin', name: string): Promise<Person> {
  const { client, person } = await app.signIn(persona, { name });
  return { id: person.id, client };
}

beforeAll(async () => {
  app = await startClassroom();
  await app.runtime.bus.subscribe('classroom.>', async (m) => void events.push(m), {
    durable: 'item-schools-spec',
  });
  creator = await signIn('teacher', 'Ms. Ruiz');
  colleague = await signIn('teacher', 'Mr. Soto');
  // School administrators are rostered as teachers (ADR 0042).
  headOfA = await signIn('teacher', 'Head of A');
  headOfB = await signIn('teacher', 'Head of B');
  district = await signIn('admin', 'District');
  twoSchools = await signIn('teacher', 'Ms. Both');
});
afterAll(async () => {
  await app?.close();
});

const KINDS = [
  {
    kind: 'audio list',
    path: '/api/audio-lists',
    body: () => ({
      title: `List ${randomUUID().slice(0, 6)}`,
      audioFiles: [{ name: 'Uno', url: '/sounds/1.mp3' }],
    }),
    ownerOnly: M.audioListOwnerOnly,
    event: 'audioList',
  },
  {
    kind: 'lesson plan',
    path: '/api/lesson-plans',
    body: () => ({ title: `Plan ${randomUUID().slice(0, 6)}` }),
    ownerOnly: M.lessonPlanOwnerOnly,
    event: 'lessonPlan',
  },
  {
    kind: 'Google Slide',
    path: '/api/google-slides',
    body: () => ({
      title: `Deck ${randomUUID().slice(0, 6)}`,
      googleSlidesUrl: 'https://docs.google.com/presentation/d/1AbC-d_9xYz/edit',
    }),
    ownerOnly: M.slideOwnerOnly,
    event: 'slide',
  },
] as const;
type Kind = (typeof KINDS)[number];

async function create(kind: Kind, by: Person, extra: Record<string, unknown> = {}): Promise<Item> {
  const res = await by.client.post<Item>(kind.path, { ...kind.body(), ...extra });
  if (res.status !== 201) throw new Error(`${kind.kind}: ${res.status} ${res.text}`);
  return res.body;
}

/**
 * The events about one item so far, each parsed by its subject's contract: `[subject, the school it names]`, the
 * school read from the item (`{ audioList: { id, schoolId } }`) or beside its id (`{ audioListId, schoolId }`).
 */
function schoolsInEvents(kind: Kind, id: string): [string, unknown][] {
  return events.flatMap((e) => {
    const schema = (SubjectSchemas as Partial<Record<string, (typeof SubjectSchemas)[Subject]>>)[e.subject];
    if (!schema) return [];
    const data = schema.parse(e.data) as Record<string, unknown>;
    const item = data[kind.event] as { id: string; schoolId?: unknown } | undefined;
    if (item?.id === id) return [[e.subject, item.schoolId] as [string, unknown]];
    if (data[`${kind.event}Id`] === id) return [[e.subject, data.schoolId] as [string, unknown]];
    return [];
  });
}

async function listed(kind: Kind, by: Person, id: string): Promise<Item | undefined> {
  return (await by.client.get<Item[]>(kind.path)).body.find((i) => i.id === id);
}

describe('an installation without classes', () => {
  it.each(KINDS)('files a new $kind under no school and gives no school’s rights', async (kind) => {
    const item = await create(kind, creator);
    expect(item.schoolId).toBeNull();
    const res = await creator.client.post(kind.path, { ...kind.body(), schoolId: randomUUID() });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ message: M.schoolNotYours });
    expect((await headOfA.client.put(`${kind.path}/${item.id}`, kind.body())).status).toBe(403);
  });
});

describe('a district', () => {
  beforeAll(async () => {
    await publishSchool(app, schoolA, [headOfA.id.toUpperCase()]);
    await publishSchool(app, schoolB, [headOfB.id]);
    await publishClass(app, {
      classId: randomUUID(),
      schoolId: schoolA,
      teacherIds: [creator.id],
      studentIds: [],
    });
    await publishClass(app, {
      classId: randomUUID(),
      schoolId: schoolA,
      teacherIds: [colleague.id],
      studentIds: [],
    });
    await publishClass(app, {
      classId: randomUUID(),
      schoolId: schoolA,
      teacherIds: [twoSchools.id],
      studentIds: [],
    });
    await publishClass(app, {
      classId: randomUUID(),
      schoolId: schoolB,
      teacherIds: [twoSchools.id],
      studentIds: [],
    });
  });

  describe.each(KINDS)('a $kind', (kind) => {
    it('is filed under its creator’s only school', async () => {
      expect((await create(kind, creator)).schoolId).toBe(schoolA);
      // A school administrator's only school is the one they administer.
      expect((await create(kind, headOfA)).schoolId).toBe(schoolA);
    });

    it('is changed by its creator, its school’s administrator and a district administrator, not by others', async () => {
      const item = await create(kind, creator);
      const expected: [Person, boolean][] = [
        [creator, true],
        [colleague, false],
        [headOfA, true],
        [headOfB, false],
        [district, true],
      ];
      for (const [who, may] of expected) {
        expect((await listed(kind, who, item.id))?.canEdit).toBe(may);
        const res = await who.client.put<Item>(`${kind.path}/${item.id}`, kind.body());
        expect(res.status).toBe(may ? 200 : 403);
        if (may) expect(res.body).toMatchObject({ schoolId: schoolA, canEdit: true });
        else expect(res.body).toMatchObject({ message: kind.ownerOnly });
      }
      for (const [who] of expected.filter(([, may]) => !may))
        expect((await who.client.delete(`${kind.path}/${item.id}`)).status).toBe(403);
      for (const [who] of expected.filter(([, may]) => may)) {
        const mine = await create(kind, creator);
        expect((await who.client.delete(`${kind.path}/${mine.id}`)).status).toBe(204);
      }
    });

    it('names its school in its created, updated and deleted events (null for none)', async () => {
      const item = await create(kind, creator);
      expect((await creator.client.put(`${kind.path}/${item.id}`, kind.body())).status).toBe(200);
      expect((await creator.client.delete(`${kind.path}/${item.id}`)).status).toBe(204);
      const unfiled = await create(kind, creator, { schoolId: null });
      await waitFor(
        () => schoolsInEvents(kind, item.id).length >= 3 && schoolsInEvents(kind, unfiled.id).length >= 1,
        'the items’ events',
      );
      const [created, updated, deleted] = schoolsInEvents(kind, item.id).map(([subject]) => subject);
      expect(schoolsInEvents(kind, item.id)).toEqual([
        [created, schoolA],
        [updated, schoolA],
        [deleted, schoolA],
      ]);
      expect(deleted).toMatch(/\.deleted\.v1$/);
      expect(schoolsInEvents(kind, unfiled.id)).toEqual([[expect.stringMatching(/\.created\.v1$/), null]]);
    });

    it('keeps its school when updated, whatever the body says', async () => {
      const item = await create(kind, creator);
      const res = await creator.client.put<Item>(`${kind.path}/${item.id}`, {
        ...kind.body(),
        schoolId: schoolB,
      });
      expect(res.status).toBe(200);
      expect(res.body.schoolId).toBe(schoolA);
    });

    it('takes a school its creator teaches in or administers, none for null, and refuses any other', async () => {
      expect((await create(kind, twoSchools)).schoolId).toBeNull();
      expect((await create(kind, twoSchools, { schoolId: schoolB.toUpperCase() })).schoolId).toBe(schoolB);
      expect((await create(kind, creator, { schoolId: null })).schoolId).toBeNull();
      for (const schoolId of [schoolB, randomUUID()]) {
        const res = await creator.client.post(kind.path, { ...kind.body(), schoolId });
        expect(res.status).toBe(400);
        expect(res.body).toMatchObject({ message: M.schoolNotYours });
      }
      const malformed = await creator.client.post(kind.path, { ...kind.body(), schoolId: 'school-1' });
      expect(malformed.status).toBe(400);
      expect(malformed.body).toMatchObject({ message: M.schoolIdInvalid });
      // A district administrator files under any school of the district, not an unknown one.
      expect((await create(kind, district, { schoolId: schoolB })).schoolId).toBe(schoolB);
      expect((await district.client.post(kind.path, { ...kind.body(), schoolId: randomUUID() })).status).toBe(
        400,
      );
    });
  });
});

describe('a deleted creator’s items', () => {
  it('keep their school in the updated events of their anonymisation', async () => {
    const leaver = await signIn('teacher', 'Mr. Leaving');
    await publishClass(app, {
      classId: randomUUID(),
      schoolId: schoolA,
      teacherIds: [leaver.id],
      studentIds: [],
    });
    const items = await Promise.all(KINDS.map(async (kind) => [kind, await create(kind, leaver)] as const));
    for (const [, item] of items) expect(item.schoolId).toBe(schoolA);
    await app.runtime.bus.publish(Subjects.identityUserDeleted, { userId: leaver.id });
    const anonymised = () =>
      items.flatMap(([kind, item]) =>
        schoolsInEvents(kind, item.id).filter(([s]) => s.endsWith('.updated.v1')),
      );
    await waitFor(() => anonymised().length >= 3, 'the anonymised items’ events');
    expect(anonymised().map(([, school]) => school)).toEqual([schoolA, schoolA, schoolA]);
  });
});
