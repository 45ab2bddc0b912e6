import { act, configure, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { User } from '@district/contracts/identity';
import { personas } from '@/testing/fixtures';
import { renderApp } from '@/testing/render-app';
import { installFakeAudio } from '@/testing/fake-audio';
import { makeAudioList } from '../classroom.fixtures.testing';
import { DEMO_QUIZ_SOUNDS } from './demo-sounds';

configure({ asyncUtilTimeout: 4000 });
afterEach(() => vi.restoreAllMocks());

async function open(user: User | null) {
  const audios = installFakeAudio();
  const view = await renderApp('/sound-demo', {
    user,
    setup: (f) => f.on('GET', '/api/audio-lists', { json: [makeAudioList()] }),
  });
  await screen.findByRole('heading', { level: 1, name: 'Sound Demo' });
  return { ...view, audios };
}

describe('/sound-demo (issue 13 item 10)', { timeout: 20_000 }, () => {
  it('lists the 30 alphabet letters and the demo quiz recordings, each with the play button', async () => {
    const { audios, user } = await open(null);
    const letters = within(screen.getByRole('list', { name: 'Alphabet sounds' })).getAllByRole('listitem');
    expect(letters).toHaveLength(30);
    expect(letters.map((li) => li.querySelector('span')?.textContent)).toEqual(
      expect.arrayContaining(['Ch', 'Ll', 'Ñ', 'RR']),
    );
    expect(audios('/sounds/spanish/%C3%B1.mp3')).toHaveLength(1);
    const quiz = within(screen.getByRole('list', { name: 'Demo quiz sounds' }));
    expect(quiz.getAllByRole('listitem')).toHaveLength(DEMO_QUIZ_SOUNDS.length);

    // The play button's states (spec §4): Loading → Play → Pause → Replay, Error.
    const hola = audios('/sounds/quiz/hola.mp3')[0]!;
    const button = within(quiz.getByText('Hola').closest('li')!).getByRole('button');
    expect(button).toHaveTextContent('Loading');
    act(() => hola.fire('canplay'));
    expect(button).toHaveTextContent('Play');
    await user.click(button);
    await waitFor(() => expect(button).toHaveTextContent('Pause'));
    act(() => hola.fire('ended'));
    expect(button).toHaveTextContent('Replay');
    const gracias = audios('/sounds/quiz/gracias.mp3')[0]!;
    act(() => gracias.fire('error'));
    expect(within(quiz.getByText('Gracias').closest('li')!).getByRole('button')).toHaveTextContent('Error');

    // A visitor is not shown the audio lists (they need a session).
    expect(screen.getByText('Sign in to hear the files of the audio lists.')).toBeInTheDocument();
  });

  it("a signed-in user also hears the audio lists' files, cloud links through the proxy", async () => {
    const { audios, fetch } = await open(personas.admin());
    const list = within(await screen.findByRole('region', { name: 'Audio list Saludos' }));
    expect(list.getByText('Gracias')).toBeInTheDocument();
    expect(
      audios(`/api/audio-proxy?url=${encodeURIComponent('https://drive.google.com/file/d/abc123/view')}`),
    ).toHaveLength(1);
    expect(fetch.calls('GET', '/api/audio-lists')).toHaveLength(1);
  });

  it("the URL tester answers 'Audio Ready' or 'URL Failed', through the proxy for cloud links", async () => {
    const { audios, user } = await open(personas.teacher());
    const test = screen.getByRole('button', { name: 'Test audio URL' });
    expect(test).toBeDisabled();
    await user.type(screen.getByLabelText('Audio URL'), 'https://cdn.example.test/ok.mp3');
    await user.click(test);
    await waitFor(() => expect(audios('https://cdn.example.test/ok.mp3')).toHaveLength(1));
    act(() => audios('https://cdn.example.test/ok.mp3')[0]!.fire('canplay'));
    expect(await screen.findByText('Audio Ready')).toBeInTheDocument();

    const dropbox = 'https://www.dropbox.com/s/abc/hola.mp3?dl=0';
    await user.clear(screen.getByLabelText('Audio URL'));
    await user.type(screen.getByLabelText('Audio URL'), dropbox);
    await user.click(test);
    const proxied = `/api/audio-proxy?url=${encodeURIComponent(dropbox)}`;
    await waitFor(() => expect(audios(proxied)).toHaveLength(1));
    act(() => audios(proxied)[0]!.fire('error'));
    expect(await screen.findByText('URL Failed')).toBeInTheDocument();
  });
});

describe('the admin dashboard card', () => {
  it('opens the sound demo', { timeout: 20_000 }, async () => {
    installFakeAudio();
    const { user } = await renderApp('/admin', {
      user: personas.admin(),
      setup: (f) => f.on('GET', '/api/users', { json: [] }).on('GET', '/api/audio-lists', { json: [] }),
    });
    await user.click(await screen.findByRole('link', { name: /^Sound Demo/ }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Sound Demo' })).toBeInTheDocument();
    expect(screen.queryByText('Coming soon')).not.toBeInTheDocument();
  });
});
