import { randomUUID } from 'node:crypto';
import {
  ClassroomMessages as M,
  Subjects,
  type AudioList,
  type GoogleSlide,
  type LessonPlan,
  type UserChangedEvent,
} from '@district/contracts';
import type { BusMessage } from '@district/nest-common';
import { waitFor, type HttpClient } from '@district/nest-common/testing';
import { startClassroom, type ClassroomTestApp } from './support/classroom-app';

let app: ClassroomTestApp;
let admin: HttpClient;
const events: BusMessage[] = [];

beforeAll(async () => {
  app = await startClassroom();
  admin = (await app.signIn('admin')).client;
  await app.runtime.bus.subscribe('classroom.>', async (m) => void events.push(m), {
    durable: 'user-events-spec',
  });
});
afterAll(async () => {
  await app?.close();
});

const renamed = (id: string, name: string): UserChangedEvent => ({
  user: {
    id,
    name,
    username: 'r',
    email: 'r@school.test',
    role: 'teacher',
    approved: true,
    isAdmin: false,
    profileImage: null,
    createdAt: new Date().toISOString(),
  },
  tokenVersion: 2,
  changed: ['name'],
});

/** A teacher with an audio list, a lesson plan naming them, and a slide. */
async function teacherWithItems(name: string) {
  const { client, person } = await app.signIn('teacher', { name });
  const files = [{ name: 'a', url: '/sounds/spanish/a.mp3' }];
  const list = (await client.post<AudioList>('/api/audio-lists', { title: 'L', audioFiles: files })).body;
  const plan = (
    await client.post<LessonPlan>('/api/lesson-plans', { title: 'P', teacher: ` ${name.toUpperCase()} ` })
  ).body;
  const otherPlan = (
    await client.post<LessonPlan>('/api/lesson-plans', { title: 'P2', teacher: 'Co-taught with Ms. Vega' })
  ).body;
  const slide = (
    await client.post<GoogleSlide>('/api/google-slides', {
      title: 'S',
      googleSlidesUrl: 'https://docs.google.com/presentation/d/abc/edit',
    })
  ).body;
  return { client, person, list, plan, otherPlan, slide };
}

async function itemsSeenByAdmin(ids: { list: string; plan: string; otherPlan: string; slide: string }) {
  return {
    list: (await admin.get<AudioList[]>('/api/audio-lists')).body.find((l) => l.id === ids.list),
    plan: (await admin.get<LessonPlan[]>('/api/lesson-plans')).body.find((p) => p.id === ids.plan),
    otherPlan: (await admin.get<LessonPlan[]>('/api/lesson-plans')).body.find((p) => p.id === ids.otherPlan),
    slide: (await admin.get<GoogleSlide[]>('/api/google-slides')).body.find((s) => s.id === ids.slide),
  };
}

describe('identity’s events', () => {
  it('rename the creator on every item, once per event (a replayed event is not applied again)', async () => {
    const t = await teacherWithItems('Ms. Ruiz');
    const ids = { list: t.list.id, plan: t.plan.id, otherPlan: t.otherPlan.id, slide: t.slide.id };
    const first = randomUUID();
    await app.runtime.bus.publish(Subjects.identityUserUpdated, renamed(t.person.id, 'Ms. Ruiz-Vega'), {
      id: first,
    });
    await waitFor(
      async () => (await itemsSeenByAdmin(ids)).slide?.creatorName === 'Ms. Ruiz-Vega',
      'the rename',
    );
    const seen = await itemsSeenByAdmin(ids);
    expect([seen.list?.creatorName, seen.plan?.creatorName, seen.slide?.creatorName]).toEqual([
      'Ms. Ruiz-Vega',
      'Ms. Ruiz-Vega',
      'Ms. Ruiz-Vega',
    ]);
    await app.runtime.bus.publish(Subjects.identityUserUpdated, renamed(t.person.id, 'Dr. Ruiz'));
    await waitFor(
      async () => (await itemsSeenByAdmin(ids)).list?.creatorName === 'Dr. Ruiz',
      'the second rename',
    );
    // The first event again (a redelivery): deduplicated by its message id, so the newer name stays.
    await app.runtime.bus.publish(Subjects.identityUserUpdated, renamed(t.person.id, 'Ms. Ruiz-Vega'), {
      id: first,
    });
    await new Promise((r) => setTimeout(r, 300));
    expect((await itemsSeenByAdmin(ids)).list?.creatorName).toBe('Dr. Ruiz');
  });

  it('keep a deleted creator’s items for the district, anonymised, changeable by admins only', async () => {
    const t = await teacherWithItems('Mr. Soto');
    const bystander = await teacherWithItems('Ms. Vega');
    const ids = { list: t.list.id, plan: t.plan.id, otherPlan: t.otherPlan.id, slide: t.slide.id };
    await app.runtime.bus.publish(Subjects.identityUserDeleted, { userId: t.person.id.toUpperCase() });
    await waitFor(async () => (await itemsSeenByAdmin(ids)).slide?.creatorId === null, 'the anonymisation');
    const seen = await itemsSeenByAdmin(ids);
    for (const item of [seen.list, seen.plan, seen.otherPlan, seen.slide])
      expect(item).toMatchObject({ creatorId: null, creatorName: M.formerMember, canEdit: true });
    // The plan's teacher line only repeated their name: cleared; a line naming someone else stays.
    expect(seen.plan?.teacher).toBe('');
    expect(seen.otherPlan?.teacher).toBe('Co-taught with Ms. Vega');
    expect(seen.list?.title).toBe('L');
    // Each anonymised item's updated event, with no creator.
    const anonymised = () =>
      events.filter((e) => {
        const data = e.data as Record<string, { id: string; creatorId: string | null } | undefined>;
        const item = data.audioList ?? data.lessonPlan ?? data.slide;
        return item !== undefined && Object.values(ids).includes(item.id) && item.creatorId === null;
      });
    await waitFor(() => anonymised().length >= 4, 'the anonymised items’ events');
    expect(
      anonymised()
        .map((e) => e.subject)
        .sort(),
    ).toEqual(
      [
        Subjects.classroomAudioListUpdated,
        Subjects.classroomLessonPlanUpdated,
        Subjects.classroomLessonPlanUpdated,
        Subjects.classroomSlideUpdated,
      ].sort(),
    );

    // Their old session (if it outlived the account) no longer changes the items; an admin still can.
    const refused = await t.client.put(`/api/audio-lists/${t.list.id}`, {
      title: 'x',
      audioFiles: t.list.audioFiles,
    });
    expect([refused.status, (refused.body as { message: string }).message]).toEqual([
      403,
      M.audioListOwnerOnly,
    ]);
    expect((await t.client.delete(`/api/google-slides/${t.slide.id}`)).status).toBe(403);
    expect((await admin.delete(`/api/lesson-plans/${t.plan.id}`)).status).toBe(204);

    // Nobody else's items are touched.
    const other = await itemsSeenByAdmin({
      list: bystander.list.id,
      plan: bystander.plan.id,
      otherPlan: bystander.otherPlan.id,
      slide: bystander.slide.id,
    });
    expect([other.list?.creatorName, other.slide?.creatorId]).toEqual(['Ms. Vega', bystander.person.id]);
  });
});
