import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { AudioPlayButton } from './audio-play-button';
import { FakeAudio, installFakeAudio } from '@/testing/fake-audio';

const SRC = 'https://cdn.example.test/hola.mp3';

function setup(props: Partial<Parameters<typeof AudioPlayButton>[0]> = {}, src = SRC, played = src) {
  const audiosFor = installFakeAudio();
  const onPlayStarted = vi.fn();
  const onError = vi.fn();
  const onStateChange = vi.fn();
  const user = userEvent.setup();
  render(
    <AudioPlayButton
      src={src}
      onPlayStarted={onPlayStarted}
      onError={onError}
      onStateChange={onStateChange}
      {...props}
    />,
  );
  const audio = audiosFor(played).at(-1)!;
  return { audio, user, onPlayStarted, onError, onStateChange, button: () => screen.getByRole('button') };
}

describe('AudioPlayButton (spec §4 "Audio play button", §8, §9)', () => {
  it('goes Loading → Play → Pause while playing → Replay after the end, at volume 0.7', async () => {
    const { audio, user, onPlayStarted, onStateChange, onError, button } = setup();
    expect(button()).toHaveTextContent('Loading');
    expect(audio.volume).toBe(0.7);
    expect(audio.src).toBe(SRC);

    act(() => audio.fire('canplay'));
    expect(button()).toHaveTextContent('Play');

    await user.click(button());
    expect(await screen.findByRole('button', { name: 'Pause' })).toBeInTheDocument();
    expect(audio.play).toHaveBeenCalledTimes(1);

    await user.click(button());
    expect(audio.pause).toHaveBeenCalledTimes(1);
    expect(button()).toHaveTextContent('Play');
    await user.click(button());
    expect(await screen.findByRole('button', { name: 'Pause' })).toBeInTheDocument();

    audio.currentTime = 3.2;
    act(() => audio.fire('ended'));
    expect(button()).toHaveTextContent('Replay');
    await user.click(button());
    expect(await screen.findByRole('button', { name: 'Pause' })).toBeInTheDocument();
    expect(audio.currentTime).toBe(0);
    // A resume is the same play; the first play and the replay are two.
    expect(onPlayStarted).toHaveBeenCalledTimes(2);
    expect(onStateChange.mock.calls.map(([s]) => s)).toEqual([
      'loading',
      'ready',
      'playing',
      'paused',
      'playing',
      'ended',
      'playing',
    ]);
    expect(onError).not.toHaveBeenCalled();
  });

  it('plays a cloud-storage link through the audio proxy, encoded', () => {
    const drive = 'https://drive.google.com/file/d/abc123/view?usp=sharing';
    const { audio, button } = setup({}, drive, `/api/audio-proxy?url=${encodeURIComponent(drive)}`);
    expect(audio).toBeDefined();
    expect(audio.src).toBe(
      '/api/audio-proxy?url=https%3A%2F%2Fdrive.google.com%2Ffile%2Fd%2Fabc123%2Fview%3Fusp%3Dsharing',
    );
    expect(FakeAudio.instances).toHaveLength(1);
    expect(button()).toHaveTextContent('Loading');
  });

  it("shows 'Error' and the load failure message when the audio fails, and calls onError once with 'load'", async () => {
    const { audio, button, onError, onStateChange } = setup();
    act(() => audio.fire('error'));
    expect(onError).toHaveBeenCalledTimes(1);
    expect(onError).toHaveBeenCalledWith('load');
    expect(onStateChange).toHaveBeenLastCalledWith('error');
    expect(button()).toHaveTextContent('Error');
    expect(button()).toBeDisabled();
    expect(screen.getByRole('alert')).toHaveTextContent(
      'Audio failed to load. Check the URL or try a different file.',
    );
  });

  it("shows 'Error' when playback fails, and a notice (not an error) when the browser blocks it", async () => {
    const { audio, user, button, onPlayStarted, onError } = setup();
    act(() => audio.fire('canplay'));
    FakeAudio.nextPlay = 'blocked';
    await user.click(button());
    expect(await screen.findByText(/browser blocked audio playback/)).toBeInTheDocument();
    expect(button()).toHaveTextContent('Play');
    expect(onError).not.toHaveBeenCalled();
    FakeAudio.nextPlay = 'fail';
    await user.click(button());
    expect(await screen.findByRole('button', { name: 'Error' })).toBeDisabled();
    expect(onPlayStarted).not.toHaveBeenCalled();
    expect(onError).toHaveBeenCalledTimes(1);
    expect(onError).toHaveBeenCalledWith('play');
  });

  it('refuses a new play when canStartPlay is false', async () => {
    const { audio, user, button } = setup({ canStartPlay: false });
    act(() => audio.fire('canplay'));
    expect(button()).toBeDisabled();
    await user.click(button());
    expect(audio.play).not.toHaveBeenCalled();
  });
});
