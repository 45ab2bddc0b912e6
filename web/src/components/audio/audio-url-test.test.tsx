import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { installFakeAudio } from '@/testing/fake-audio';
import { AudioUrlTest } from './audio-url-test';

function Harness({ initial }: { initial: string }) {
  const [url, setUrl] = useState(initial);
  return (
    <>
      <input aria-label="Link" value={url} onChange={(e) => setUrl(e.target.value)} />
      <AudioUrlTest url={url} label="Test link" />
    </>
  );
}

describe("AudioUrlTest ('Audio Ready' / 'URL Failed', preview at 0.6)", () => {
  it("says 'Audio Ready' and previews a direct link at 0.6; editing the link clears the result", async () => {
    const audiosFor = installFakeAudio();
    const user = userEvent.setup();
    render(<Harness initial="https://cdn.example.test/ok.mp3" />);
    await user.click(screen.getByRole('button', { name: 'Test link' }));
    const audio = audiosFor('https://cdn.example.test/ok.mp3')[0]!;
    expect(audio.volume).toBe(0.6);
    expect(screen.getByRole('status')).toHaveTextContent('Testing…');
    act(() => audio.fire('canplay'));
    expect(await screen.findByText('Audio Ready')).toBeInTheDocument();
    await waitFor(() => expect(audio.play).toHaveBeenCalledTimes(1));
    await user.type(screen.getByLabelText('Link'), 'x');
    expect(screen.queryByText('Audio Ready')).not.toBeInTheDocument();
  });

  it("tests a cloud-storage link through the audio proxy and says 'URL Failed' when it does not load", async () => {
    const audiosFor = installFakeAudio();
    const user = userEvent.setup();
    const link = 'https://www.dropbox.com/s/abc/hola.mp3?dl=0';
    render(<Harness initial={link} />);
    await user.click(screen.getByRole('button', { name: 'Test link' }));
    expect(audiosFor(link)).toHaveLength(0);
    const audio = audiosFor(`/api/audio-proxy?url=${encodeURIComponent(link)}`)[0]!;
    act(() => audio.fire('error'));
    expect(await screen.findByText('URL Failed')).toBeInTheDocument();
  });

  it('cannot test an empty link', () => {
    installFakeAudio();
    render(<Harness initial="  " />);
    expect(screen.getByRole('button', { name: 'Test link' })).toBeDisabled();
  });
});
