import { act, configure, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ClassroomMessages, type AudioList } from '@district/contracts/classroom';
import type { FetchStub } from '@/testing/fetch-stub';
import { personas } from '@/testing/fixtures';
import { renderApp } from '@/testing/render-app';
import { FakeAudio, installFakeAudio } from '@/testing/fake-audio';
import { makeAudioList } from '../classroom.fixtures.testing';

configure({ asyncUtilTimeout: 4000 });
afterEach(() => vi.restoreAllMocks());

const DRIVE = 'https://drive.google.com/file/d/abc123/view';
const PROXIED = `/api/audio-proxy?url=${encodeURIComponent(DRIVE)}`;
/** Classroom-tools §8, the play button's own line. */
const LOAD_FAILED = 'Audio failed to load. Check the URL or try a different file.';

async function open(
  user: ReturnType<typeof personas.student>,
  lists: AudioList[],
  setup?: (f: FetchStub) => void,
) {
  const audios = installFakeAudio();
  const view = await renderApp('/audio-lists', {
    user,
    setup: (f) => {
      f.on('GET', '/api/audio-lists', () => ({ json: lists }));
      setup?.(f);
    },
  });
  await screen.findByRole('heading', { level: 1, name: 'Audio Lists' });
  return { ...view, audios };
}

const formAlert = () => within(screen.getByRole('form', { name: 'Create audio list' })).findByRole('alert');
const fileGroup = (n: number) => within(screen.getByRole('group', { name: `Audio file ${n}` }));

describe('/audio-lists (spec §2, §5, §6, §7, §8)', { timeout: 20_000 }, () => {
  it('a student lists and plays: cloud links through the audio proxy, others directly; no create, edit or delete', async () => {
    const { audios, user } = await open(personas.student(), [makeAudioList()]);
    const card = within(await screen.findByRole('list', { name: 'Files of Saludos' }));
    expect(card.getByText('Hola')).toBeInTheDocument();
    expect(screen.getByText('By Tia Teacher · March 5, 2025')).toBeInTheDocument();
    expect(audios('/sounds/quiz/hola.mp3')).toHaveLength(1);
    expect(audios(PROXIED)).toHaveLength(1);
    expect(audios(DRIVE)).toHaveLength(0);

    const playGracias = within(screen.getByRole('group', { name: 'Play Gracias' })).getByRole('button');
    expect(playGracias).toHaveTextContent('Loading');
    act(() => audios(PROXIED)[0]!.fire('canplay'));
    expect(playGracias).toHaveTextContent('Play');
    await user.click(playGracias);
    expect(
      await within(screen.getByRole('group', { name: 'Play Gracias' })).findByRole('button', {
        name: 'Pause',
      }),
    ).toBeInTheDocument();
    expect(audios(PROXIED)[0]!.play).toHaveBeenCalledTimes(1);

    expect(screen.queryByRole('button', { name: 'Create Audio List' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Edit Saludos' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Delete Saludos' })).not.toBeInTheDocument();
  });

  it("keeps a broken link quiet until the file is played, then says 'Failed to play {name}. Please check the audio URL.' once", async () => {
    const { audios, user } = await open(personas.student(), [makeAudioList()]);
    const hola = () => within(screen.getByRole('group', { name: 'Play Hola' }));
    await screen.findByRole('group', { name: 'Play Hola' });
    // The list preloads; a link that fails then raises nothing before anyone presses Play (issue #34).
    act(() => audios('/sounds/quiz/hola.mp3')[0]!.fire('error'));
    expect(hola().getByRole('button')).toHaveTextContent('Play');
    expect(screen.queryByText('Failed to play Hola. Please check the audio URL.')).not.toBeInTheDocument();
    expect(screen.queryByText(LOAD_FAILED)).not.toBeInTheDocument();

    // Play tries the file again and reports what happens, once.
    const audio = audios('/sounds/quiz/hola.mp3')[0]!;
    FakeAudio.nextPlay = 'fail';
    await user.click(hola().getByRole('button'));
    act(() => audio.fire('error'));
    expect(await screen.findByText('Failed to play Hola. Please check the audio URL.')).toBeInTheDocument();
    expect(audio.load).toHaveBeenCalledTimes(1);
    expect(hola().getByRole('button')).toHaveTextContent('Error');
    expect(screen.getAllByText(LOAD_FAILED)).toHaveLength(1);
    expect(screen.queryByText('Failed to play Gracias. Please check the audio URL.')).not.toBeInTheDocument();
  });

  it('also says it when the file loaded but the browser cannot play it (not when it only blocks autoplay)', async () => {
    const { audios, user } = await open(personas.student(), [makeAudioList()]);
    const group = () => within(screen.getByRole('group', { name: 'Play Gracias' }));
    await screen.findByRole('group', { name: 'Play Gracias' });
    act(() => audios(PROXIED)[0]!.fire('canplay'));
    FakeAudio.nextPlay = 'blocked';
    await user.click(group().getByRole('button'));
    expect(await screen.findByText(/browser blocked audio playback/)).toBeInTheDocument();
    expect(screen.queryByText('Failed to play Gracias. Please check the audio URL.')).not.toBeInTheDocument();
    FakeAudio.nextPlay = 'fail';
    await user.click(group().getByRole('button'));
    expect(
      await screen.findByText('Failed to play Gracias. Please check the audio URL.'),
    ).toBeInTheDocument();
    expect(group().getByRole('button')).toHaveTextContent('Error');
    expect(screen.queryByText('Failed to play Hola. Please check the audio URL.')).not.toBeInTheDocument();
  });

  it('plays every cloud host family through the proxy and other hosts directly', async () => {
    const links = {
      Drive: 'https://docs.google.com/uc?export=download&id=x1',
      Dropbox: 'https://www.dropbox.com/scl/fi/x/dos.mp3?rlkey=k&dl=0',
      OneDrive: 'https://1drv.ms/u/s!AbC',
      SharePoint: 'https://contoso.sharepoint.com/:u:/s/site/EaB',
      iCloud: 'https://www.icloud.com/iclouddrive/0xy#tres',
      CDN: 'https://cdn.example.test/cuatro.mp3',
    };
    const list = makeAudioList({
      title: 'Nubes',
      audioFiles: Object.entries(links).map(([name, url]) => ({ name, url })),
    });
    const { audios } = await open(personas.student(), [list]);
    await screen.findByRole('group', { name: 'Play CDN' });
    for (const [name, url] of Object.entries(links)) {
      const through = name === 'CDN' ? url : `/api/audio-proxy?url=${encodeURIComponent(url)}`;
      expect(audios(through), name).toHaveLength(1);
      if (name !== 'CDN') expect(audios(url), name).toHaveLength(0);
    }
  });

  it('shows the empty state, and the fetch failure with Try Again', async () => {
    const failing = vi.fn(() => ({ status: 500, json: { message: 'Database unavailable' } }));
    const { user, fetch } = await open(personas.student(), [], (f) =>
      f.on('GET', '/api/audio-lists', failing),
    );
    expect(await screen.findByText('Failed to fetch audio lists')).toBeInTheDocument();
    expect(screen.getByText('Database unavailable')).toBeInTheDocument();
    fetch.on('GET', '/api/audio-lists', { json: [] });
    await user.click(screen.getByRole('button', { name: 'Try Again' }));
    expect(await screen.findByText('No audio lists yet.')).toBeInTheDocument();
  });

  it("a teacher creates a list: 'Please provide a title and at least one audio file.', each file's name and URL, then the body sent", async () => {
    const lists: AudioList[] = [];
    const { user, fetch } = await open(personas.teacher(), lists, (f) =>
      f.on('POST', '/api/audio-lists', (req) => {
        const list = makeAudioList({ ...(req.body as object), canEdit: true });
        lists.push(list);
        return { status: 201, json: list };
      }),
    );
    expect(
      await screen.findByText('No audio lists yet. Create the first one for your class.'),
    ).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Create Audio List' }));
    const save = screen.getByRole('button', { name: 'Save List' });

    await user.click(save);
    expect(await formAlert()).toHaveTextContent(ClassroomMessages.audioListRequired);
    await user.type(screen.getByLabelText('Title'), 'Números');
    await user.click(save);
    expect(await formAlert()).toHaveTextContent(ClassroomMessages.audioListRequired);

    await user.type(fileGroup(1).getByLabelText('Name'), 'Uno');
    await user.click(save);
    expect(await formAlert()).toHaveTextContent(ClassroomMessages.audioFileUrlInvalid(1));
    await user.type(fileGroup(1).getByLabelText('URL'), 'javascript:alert(1)');
    await user.click(save);
    expect(await formAlert()).toHaveTextContent(ClassroomMessages.audioFileUrlInvalid(1));
    await user.clear(fileGroup(1).getByLabelText('URL'));
    await user.type(fileGroup(1).getByLabelText('URL'), 'https://cdn.example.test/uno.mp3');

    await user.click(screen.getByRole('button', { name: 'Add Audio File' }));
    await user.type(fileGroup(2).getByLabelText('URL'), 'https://www.dropbox.com/s/x/dos.mp3?dl=0');
    await user.click(save);
    expect(await formAlert()).toHaveTextContent(ClassroomMessages.audioFileNameRequired(2));
    await user.type(fileGroup(2).getByLabelText('Name'), 'Dos');
    // A row left entirely blank is ignored.
    await user.click(screen.getByRole('button', { name: 'Add Audio File' }));
    expect(fetch.calls('POST', '/api/audio-lists')).toHaveLength(0);

    await user.click(save);
    expect(await screen.findByText('Audio list created successfully')).toBeInTheDocument();
    expect(fetch.calls('POST', '/api/audio-lists')[0]?.body).toEqual({
      title: 'Números',
      description: '',
      audioFiles: [
        { name: 'Uno', url: 'https://cdn.example.test/uno.mp3' },
        { name: 'Dos', url: 'https://www.dropbox.com/s/x/dos.mp3?dl=0' },
      ],
    });
    expect(await screen.findByRole('list', { name: 'Files of Números' })).toBeInTheDocument();
  });

  it("the form's Test plays a cloud link through the proxy and answers 'Audio Ready'", async () => {
    const { user, audios } = await open(personas.teacher(), []);
    await user.click(await screen.findByRole('button', { name: 'Create Audio List' }));
    await user.type(fileGroup(1).getByLabelText('URL'), DRIVE);
    await user.click(screen.getByRole('button', { name: 'Test audio file 1' }));
    await waitFor(() => expect(audios(PROXIED)).toHaveLength(1));
    act(() => audios(PROXIED)[0]!.fire('canplay'));
    expect(await screen.findByText('Audio Ready')).toBeInTheDocument();
  });

  it("edits with PUT (prefilled), shows 'Failed to save audio list' on failure, deletes after confirmation", async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const mine = makeAudioList({ canEdit: true });
    const lists = [mine, makeAudioList({ title: 'Ajena' })];
    const { user, fetch } = await open(personas.teacher(), lists);
    expect(await screen.findByRole('button', { name: 'Edit Saludos' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Edit Ajena' })).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Edit Saludos' }));
    expect(screen.getByLabelText('Title')).toHaveValue('Saludos');
    expect(fileGroup(2).getByLabelText('URL')).toHaveValue(DRIVE);
    fetch.on('PUT', `/api/audio-lists/${mine.id}`, { status: 500, json: { message: 'Boom' } });
    await user.click(screen.getByRole('button', { name: 'Update List' }));
    expect(await screen.findByText(ClassroomMessages.saveAudioListFailed)).toBeInTheDocument();
    expect(screen.getByText('Boom')).toBeInTheDocument();

    fetch.on('PUT', `/api/audio-lists/${mine.id}`, (req) => {
      Object.assign(mine, req.body);
      return { json: mine };
    });
    await user.clear(screen.getByLabelText('Title'));
    await user.type(screen.getByLabelText('Title'), 'Saludos 2');
    await user.click(screen.getByRole('button', { name: 'Update List' }));
    expect(await screen.findByText('Audio list updated successfully')).toBeInTheDocument();
    expect(fetch.calls('PUT', `/api/audio-lists/${mine.id}`).at(-1)?.body).toMatchObject({
      title: 'Saludos 2',
      audioFiles: makeAudioList().audioFiles,
    });

    fetch.on('DELETE', `/api/audio-lists/${mine.id}`, {
      status: 403,
      json: { message: ClassroomMessages.audioListOwnerOnly },
    });
    await user.click(await screen.findByRole('button', { name: 'Delete Saludos 2' }));
    const dialog = within(await screen.findByRole('alertdialog'));
    expect(dialog.getByText(/Are you sure you want to delete this audio list\?/)).toBeInTheDocument();
    await user.click(dialog.getByRole('button', { name: 'Cancel' }));
    expect(fetch.calls('DELETE', `/api/audio-lists/${mine.id}`)).toHaveLength(0);

    await user.click(screen.getByRole('button', { name: 'Delete Saludos 2' }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText(ClassroomMessages.deleteAudioListFailed)).toBeInTheDocument();
    expect(screen.getByText(ClassroomMessages.audioListOwnerOnly)).toBeInTheDocument();

    fetch.on('DELETE', `/api/audio-lists/${mine.id}`, () => {
      lists.splice(lists.indexOf(mine), 1);
      return { status: 204 };
    });
    await user.click(screen.getByRole('button', { name: 'Delete Saludos 2' }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Audio list deleted successfully')).toBeInTheDocument();
    await waitFor(() =>
      expect(screen.queryByRole('button', { name: 'Delete Saludos 2' })).not.toBeInTheDocument(),
    );
  });
});
