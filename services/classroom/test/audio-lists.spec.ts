import {
  AUDIO_LIST_FILES_MAX,
  AUDIO_LIST_TITLE_MAX,
  ClassroomMessages as M,
  Subjects,
  type AudioList,
} from '@district/contracts';
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
  const spec = await startClassroomSpec('classroom.>', 'audio-lists-spec');
  ({ app, events } = spec);
  ({ teacher, otherTeacher, admin, student } = spec.people);
});
afterAll(async () => {
  await app?.close();
});

const files = [
  { name: ' Hola ', url: ' /sounds/quiz/hola.mp3 ' },
  { name: 'Drive', url: 'https://drive.google.com/file/d/abc/view' },
];

async function create(client: HttpClient, title: string): Promise<AudioList> {
  const res = await client.post<AudioList>('/api/audio-lists', { title, audioFiles: files });
  expect(res.status).toBe(201);
  return res.body;
}

describe('audio lists', () => {
  it('are created by teachers, listed to everyone signed in, changed by their creator, with their events', async () => {
    const created = await teacher.post<AudioList>('/api/audio-lists', {
      title: '  Saludos  ',
      audioFiles: files,
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      title: 'Saludos',
      description: '',
      audioFiles: [
        { name: 'Hola', url: '/sounds/quiz/hola.mp3' },
        { name: 'Drive', url: 'https://drive.google.com/file/d/abc/view' },
      ],
      creatorName: 'Ms. Ruiz',
      canEdit: true,
    });
    const id = created.body.id;
    const seenBy = async (client: HttpClient) =>
      (await client.get<AudioList[]>('/api/audio-lists')).body.find((l) => l.id === id);
    expect(await seenBy(student)).toMatchObject({ title: 'Saludos', canEdit: false });
    expect(await seenBy(otherTeacher)).toMatchObject({ canEdit: false });
    expect(await seenBy(admin)).toMatchObject({ canEdit: true });

    const updated = await teacher.put<AudioList>(`/api/audio-lists/${id.toUpperCase()}`, {
      title: 'Saludos 2',
      description: 'Escucha',
      audioFiles: [files[0]],
    });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({
      title: 'Saludos 2',
      description: 'Escucha',
      audioFiles: [{ name: 'Hola' }],
    });
    expect(updated.body.updatedAt >= updated.body.createdAt).toBe(true);

    const refused = await otherTeacher.put(`/api/audio-lists/${id}`, {
      title: 'Mine now',
      audioFiles: files,
    });
    expect([refused.status, (refused.body as { message: string }).message]).toEqual([
      403,
      M.audioListOwnerOnly,
    ]);
    expect((await otherTeacher.delete(`/api/audio-lists/${id}`)).status).toBe(403);
    expect((await student.delete(`/api/audio-lists/${id}`)).status).toBe(403);
    expect((await seenBy(teacher))?.title).toBe('Saludos 2');

    expect((await teacher.delete(`/api/audio-lists/${id}`)).status).toBe(204);
    expect(await seenBy(teacher)).toBeUndefined();
    expect((await teacher.delete(`/api/audio-lists/${id}`)).status).toBe(404);

    const subjectsOf = () => eventSubjectsFor(events, 'audioList', id);
    await waitFor(() => subjectsOf().length >= 3, 'the list’s three events');
    expect(subjectsOf()).toEqual([
      Subjects.classroomAudioListCreated,
      Subjects.classroomAudioListUpdated,
      Subjects.classroomAudioListDeleted,
    ]);
    const createdEvent = events.find(
      (e) =>
        e.subject === Subjects.classroomAudioListCreated &&
        (e.data as { audioList: { id: string } }).audioList.id === id,
    );
    expect(createdEvent?.data).toEqual({
      audioList: {
        id,
        title: 'Saludos',
        fileCount: 2,
        creatorId: expect.any(String),
        // No school in an installation without classes (issue #36).
        schoolId: null,
        updatedAt: expect.any(String),
      },
    });
  });

  it('may be changed and deleted by an admin whoever created them', async () => {
    const list = await create(teacher, 'Números');
    const res = await admin.put<AudioList>(`/api/audio-lists/${list.id}`, {
      title: 'Números (admin)',
      audioFiles: files,
    });
    expect([res.status, res.body.creatorName]).toEqual([200, 'Ms. Ruiz']);
    expect((await admin.delete(`/api/audio-lists/${list.id}`)).status).toBe(204);
  });

  it.each([
    ['no title', { audioFiles: files }, M.audioListRequired],
    ['a blank title', { title: '   ', audioFiles: files }, M.audioListRequired],
    ['no files', { title: 'x', audioFiles: [] }, M.audioListRequired],
    ['files not a list', { title: 'x', audioFiles: 'a.mp3' }, M.audioListRequired],
    [
      'a file without a name',
      { title: 'x', audioFiles: [{ name: ' ', url: '/a.mp3' }] },
      M.audioFileNameRequired(1),
    ],
    ['a file without a URL', { title: 'x', audioFiles: [files[0], { name: 'b' }] }, M.audioFileUrlInvalid(2)],
    [
      'a javascript: URL',
      { title: 'x', audioFiles: [{ name: 'a', url: 'javascript:alert(1)' }] },
      M.audioFileUrlInvalid(1),
    ],
    [
      'a data: URL',
      { title: 'x', audioFiles: [{ name: 'a', url: 'data:audio/mp3;base64,AAAA' }] },
      M.audioFileUrlInvalid(1),
    ],
    [
      'a protocol-relative URL',
      { title: 'x', audioFiles: [{ name: 'a', url: '//evil.example/a.mp3' }] },
      M.audioFileUrlInvalid(1),
    ],
    [
      'a relative path',
      { title: 'x', audioFiles: [{ name: 'a', url: 'sounds/a.mp3' }] },
      M.audioFileUrlInvalid(1),
    ],
    [
      'an ftp URL',
      { title: 'x', audioFiles: [{ name: 'a', url: 'ftp://host/a.mp3' }] },
      M.audioFileUrlInvalid(1),
    ],
    [
      'a title too long',
      { title: 'x'.repeat(AUDIO_LIST_TITLE_MAX + 1), audioFiles: files },
      M.audioListTitleTooLong,
    ],
    [
      'a description too long',
      { title: 'x', description: 'd'.repeat(2001), audioFiles: files },
      M.audioListDescriptionTooLong,
    ],
    [
      'a name too long',
      { title: 'x', audioFiles: [{ name: 'n'.repeat(201), url: '/a.mp3' }] },
      M.audioFileNameTooLong(1),
    ],
    [
      'a URL too long',
      { title: 'x', audioFiles: [{ name: 'a', url: `https://h.example/${'a'.repeat(2048)}` }] },
      M.audioFileUrlInvalid(1),
    ],
    [
      'too many files',
      {
        title: 'x',
        audioFiles: Array.from({ length: AUDIO_LIST_FILES_MAX + 1 }, (_, i) => ({
          name: `f${i}`,
          url: '/a.mp3',
        })),
      },
      M.tooManyAudioFiles,
    ],
    ['not an object', ['title'], M.bodyNotObject],
    ['a NUL character', { title: 'a\u0000b', audioFiles: files }, 'Text may not contain NUL characters'],
  ])('refuses %s with a 400 and stores nothing', async (_, body, message) => {
    const before = (await teacher.get<AudioList[]>('/api/audio-lists')).body.length;
    const res = await teacher.post('/api/audio-lists', body);
    expect([res.status, (res.body as { message: string }).message]).toEqual([400, message]);
    expect((await teacher.get<AudioList[]>('/api/audio-lists')).body.length).toBe(before);
  });

  it('stores a lone surrogate (never sent by a browser) as U+FFFD, in text and jsonb columns alike', async () => {
    const res = await teacher.post<AudioList>('/api/audio-lists', {
      title: 'T\udc00',
      audioFiles: [{ name: 'a\ud800', url: '/a.mp3' }],
    });
    expect([res.status, res.body.title, res.body.audioFiles[0].name]).toEqual([201, 'T\ufffd', 'a\ufffd']);
  });

  it('leaves a list as it was when an update is refused', async () => {
    const list = await create(teacher, 'Colores');
    const res = await teacher.put(`/api/audio-lists/${list.id}`, {
      title: 'Colores',
      audioFiles: [{ name: 'a', url: 'file:///etc/passwd' }],
    });
    expect(res.status).toBe(400);
    const stored = (await teacher.get<AudioList[]>('/api/audio-lists')).body.find((l) => l.id === list.id);
    expect(stored?.audioFiles).toEqual(list.audioFiles);
  });
});
