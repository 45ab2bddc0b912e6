import { ClassroomMessages as M, Subjects, type GoogleSlide } from '@district/contracts';
import type { BusMessage } from '@district/nest-common';
import { waitFor, type HttpClient } from '@district/nest-common/testing';
import { eventSubjectsFor, startClassroomSpec, type ClassroomTestApp } from './support/classroom-app';

let app: ClassroomTestApp;
let teacher: HttpClient;
let otherTeacher: HttpClient;
let admin: HttpClient;
let student: HttpClient;
let events: BusMessage[];

beforeAll(async () => {
  const spec = await startClassroomSpec('classroom.slide.>', 'slides-spec');
  ({ app, events } = spec);
  ({ teacher, otherTeacher, admin, student } = spec.people);
});
afterAll(async () => {
  await app?.close();
});

const NORMAL = 'https://docs.google.com/presentation/d/1AbC-d_9xYz/edit?usp=sharing';
const PUBLISHED =
  'https://docs.google.com/presentation/d/e/2PACX-1vQ_abc-123/pub?start=false&loop=false&delayms=3000';
const embedOf = (id: string, published = false) =>
  `https://docs.google.com/presentation/d/${published ? 'e/' : ''}${id}/embed?start=false&loop=false&delayms=3000`;

const listed = async (client: HttpClient) => (await client.get<GoogleSlide[]>('/api/google-slides')).body;

describe('Google Slides', () => {
  it('derive their embed on the server from a normal or a published link, ignoring the client’s', async () => {
    const normal = await teacher.post<GoogleSlide>('/api/google-slides', {
      title: ' Saludos ',
      description: 'Greetings',
      googleSlidesUrl: NORMAL,
      embedUrl: 'https://evil.example/phish',
      category: 'Spanish I',
      tags: ' greetings, unit 1 ,, vocabulary ',
    });
    expect(normal.status).toBe(201);
    expect(normal.body).toMatchObject({
      title: 'Saludos',
      googleSlidesUrl: NORMAL,
      embedUrl: embedOf('1AbC-d_9xYz'),
      isPublic: true,
      category: 'Spanish I',
      tags: ['greetings', 'unit 1', 'vocabulary'],
      creatorName: 'Ms. Ruiz',
      canEdit: true,
    });
    const published = await teacher.post<GoogleSlide>('/api/google-slides', {
      title: 'Published',
      googleSlidesUrl: PUBLISHED,
      embedUrl: embedOf('other'),
      tags: ['a, b', 'c'],
    });
    expect(published.body).toMatchObject({
      embedUrl: embedOf('2PACX-1vQ_abc-123', true),
      tags: ['a', 'b', 'c'],
    });
    // A presentations link the rule cannot embed: kept, with no preview.
    const noPreview = await teacher.post<GoogleSlide>('/api/google-slides', {
      title: 'Folder',
      googleSlidesUrl: 'https://docs.google.com/presentation/u/0/',
    });
    expect([noPreview.status, noPreview.body.embedUrl]).toEqual([201, '']);
    // An update derives again.
    const updated = await teacher.put<GoogleSlide>(`/api/google-slides/${normal.body.id}`, {
      title: 'Saludos',
      googleSlidesUrl: PUBLISHED,
      embedUrl: 'javascript:alert(1)',
      isPublic: false,
    });
    expect(updated.body).toMatchObject({
      embedUrl: embedOf('2PACX-1vQ_abc-123', true),
      isPublic: false,
      tags: [],
    });
  });

  it('show students only the public slides; teachers and admins see all', async () => {
    const open = await teacher.post<GoogleSlide>('/api/google-slides', {
      title: 'Open',
      googleSlidesUrl: NORMAL,
    });
    const hidden = await teacher.post<GoogleSlide>('/api/google-slides', {
      title: 'Hidden',
      googleSlidesUrl: NORMAL,
      isPublic: false,
    });
    const ids = (slides: GoogleSlide[]) => slides.map((s) => s.id);
    expect(ids(await listed(student))).toContain(open.body.id);
    expect(ids(await listed(student))).not.toContain(hidden.body.id);
    expect((await listed(student)).every((s) => s.isPublic && !s.canEdit)).toBe(true);
    const { client: pending } = await app.signIn('teacher', { approved: false });
    expect(ids(await listed(pending))).not.toContain(hidden.body.id);
    for (const client of [teacher, otherTeacher, admin])
      expect(ids(await listed(client))).toContain(hidden.body.id);
    expect((await listed(otherTeacher)).find((s) => s.id === hidden.body.id)?.canEdit).toBe(false);
    expect((await listed(admin)).find((s) => s.id === hidden.body.id)?.canEdit).toBe(true);
  });

  it('are changed and deleted by their creator or an admin only, with their events', async () => {
    const slide = await teacher.post<GoogleSlide>('/api/google-slides', {
      title: 'Mine',
      googleSlidesUrl: NORMAL,
    });
    const id = slide.body.id;
    const refused = await otherTeacher.put(`/api/google-slides/${id}`, {
      title: 'Theirs',
      googleSlidesUrl: NORMAL,
    });
    expect([refused.status, (refused.body as { message: string }).message]).toEqual([403, M.slideOwnerOnly]);
    expect((await otherTeacher.delete(`/api/google-slides/${id}`)).status).toBe(403);
    expect((await student.delete(`/api/google-slides/${id}`)).status).toBe(403);
    const byAdmin = await admin.put<GoogleSlide>(`/api/google-slides/${id}`, {
      title: 'Admin’s',
      googleSlidesUrl: NORMAL,
    });
    expect([byAdmin.status, byAdmin.body.creatorName]).toEqual([200, 'Ms. Ruiz']);
    expect((await teacher.delete(`/api/google-slides/${id}`)).status).toBe(204);
    expect((await listed(teacher)).map((s) => s.id)).not.toContain(id);

    const subjectsOf = () => eventSubjectsFor(events, 'slide', id);
    await waitFor(() => subjectsOf().length >= 3, 'the slide’s three events');
    expect(subjectsOf()).toEqual([
      Subjects.classroomSlideCreated,
      Subjects.classroomSlideUpdated,
      Subjects.classroomSlideDeleted,
    ]);
  });

  it('recompute a stored embed that differs from the rule when read, and store it corrected', async () => {
    const slide = await teacher.post<GoogleSlide>('/api/google-slides', {
      title: 'Tampered',
      googleSlidesUrl: NORMAL,
    });
    await app.dataSource.query(`UPDATE "${app.schema}".google_slides SET embed_url = $2 WHERE id = $1`, [
      slide.body.id,
      'https://evil.example/embed',
    ]);
    expect((await listed(student)).find((s) => s.id === slide.body.id)?.embedUrl).toBe(
      embedOf('1AbC-d_9xYz'),
    );
    const [row] = (await app.dataSource.query(
      `SELECT embed_url FROM "${app.schema}".google_slides WHERE id = $1`,
      [slide.body.id],
    )) as { embed_url: string }[];
    expect(row.embed_url).toBe(embedOf('1AbC-d_9xYz'));
  });

  it.each([
    ['no title', { googleSlidesUrl: NORMAL }, M.slideTitleRequired],
    ['a title too long', { title: 't'.repeat(201), googleSlidesUrl: NORMAL }, M.slideTitleTooLong],
    ['no URL', { title: 'x' }, M.slideUrlRequired],
    ['a blank URL', { title: 'x', googleSlidesUrl: '  ' }, M.slideUrlRequired],
    [
      'another site',
      { title: 'x', googleSlidesUrl: 'https://example.org/presentation/d/abc' },
      M.invalidSlidesUrl,
    ],
    [
      'a Google Doc',
      { title: 'x', googleSlidesUrl: 'https://docs.google.com/document/d/abc/edit' },
      M.invalidSlidesUrl,
    ],
    [
      'a javascript: link',
      { title: 'x', googleSlidesUrl: 'javascript:alert("docs.google.com/presentation")' },
      M.invalidSlidesUrl,
    ],
    [
      'a host behind user info',
      { title: 'x', googleSlidesUrl: 'https://docs.google.com@evil.example/presentation/d/a' },
      M.invalidSlidesUrl,
    ],
    ['a URL too long', { title: 'x', googleSlidesUrl: `${NORMAL}&${'a'.repeat(2048)}` }, M.invalidSlidesUrl],
    [
      'a description too long',
      { title: 'x', googleSlidesUrl: NORMAL, description: 'd'.repeat(2001) },
      M.slideDescriptionTooLong,
    ],
    [
      'a category too long',
      { title: 'x', googleSlidesUrl: NORMAL, category: 'c'.repeat(101) },
      M.slideCategoryTooLong,
    ],
    ['a tag too long', { title: 'x', googleSlidesUrl: NORMAL, tags: ['t'.repeat(51)] }, M.slideTagsInvalid],
    [
      'too many tags',
      { title: 'x', googleSlidesUrl: NORMAL, tags: Array.from({ length: 21 }, (_, i) => `t${i}`) },
      M.slideTagsInvalid,
    ],
    ['tags of numbers', { title: 'x', googleSlidesUrl: NORMAL, tags: [1, 2] }, M.slideTagsInvalid],
    [
      'isPublic not a boolean',
      { title: 'x', googleSlidesUrl: NORMAL, isPublic: 'yes' },
      M.slideIsPublicInvalid,
    ],
  ])('refuses %s with a 400 and stores nothing', async (_, body, message) => {
    const before = (await listed(teacher)).length;
    const res = await teacher.post('/api/google-slides', body);
    expect([res.status, (res.body as { message: string }).message]).toEqual([400, message]);
    expect((await listed(teacher)).length).toBe(before);
  });

  it('answers the spec’s text to a visitor who is not signed in', async () => {
    const res = await app.client().get('/api/google-slides');
    expect([res.status, (res.body as { message: string }).message]).toEqual([401, M.slidesLoginRequired]);
  });
});
