import { act, fireEvent, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderTool } from '../shared/render-tool.testing';
import SpanishAlphabetPage from './spanish-alphabet-page';

/** Records what the page plays; `fail` makes every file fail to load, as a missing file would. */
function stubAudio(fail = false) {
  const played: { src: string; volume: number }[] = [];
  class FakeAudio {
    volume = 1;
    private onError: (() => void) | null = null;
    constructor(readonly src: string) {}
    play() {
      played.push({ src: this.src, volume: this.volume });
      if (fail) queueMicrotask(() => this.onError?.());
      return Promise.resolve();
    }
    pause() {}
    addEventListener(_type: string, listener: () => void) {
      this.onError = listener;
    }
  }
  vi.stubGlobal('Audio', FakeAudio);
  return played;
}

function stubSpeech() {
  const utterances: { text: string; lang: string; rate: number }[] = [];
  class Utterance {
    lang = '';
    rate = 1;
    constructor(readonly text: string) {}
  }
  const synth = {
    speak: vi.fn((u: Utterance) => utterances.push({ text: u.text, lang: u.lang, rate: u.rate })),
    cancel: vi.fn(),
  };
  vi.stubGlobal('SpeechSynthesisUtterance', Utterance);
  vi.stubGlobal('speechSynthesis', synth);
  return { utterances, synth };
}

const card = (letter: string) => screen.getByRole('button', { name: new RegExp(`^Play\\s*${letter}\\s*:`) });
const highlighted = () =>
  screen.queryAllByRole('button', { current: true }).map((b) => b.textContent?.split(':')[0]);

describe('SpanishAlphabetPage (/spanish-alphabet)', () => {
  beforeEach(() => stubSpeech());
  afterEach(() => vi.useRealTimers());

  it('shows 30 letter cards with name and hint, including Ch, Ll, Ñ and RR', async () => {
    stubAudio();
    await renderTool(<SpanishAlphabetPage />, { path: '/spanish-alphabet' });
    expect(screen.getAllByRole('button', { name: /^Play\s*[A-ZÑa-z]+\s*:/ })).toHaveLength(30);
    for (const letter of ['Ch', 'Ll', 'Ñ', 'RR']) expect(card(letter)).toBeInTheDocument();
    expect(card('Ñ')).toHaveTextContent('eñe');
    expect(card('Ñ')).toHaveTextContent('canyon');
  });

  it('plays a letter from /sounds/spanish and highlights it for 800 ms', async () => {
    const played = stubAudio();
    await renderTool(<SpanishAlphabetPage />, { path: '/spanish-alphabet' });
    vi.useFakeTimers();
    fireEvent.click(card('Ñ'));
    expect(played).toEqual([{ src: '/sounds/spanish/%C3%B1.mp3', volume: 0.7 }]);
    expect(highlighted()).toEqual(['Play Ñ']);
    await act(() => vi.advanceTimersByTimeAsync(800));
    expect(highlighted()).toEqual([]);
  });

  it('speaks the letter name in es-ES at rate 0.8 when the file fails', async () => {
    stubAudio(true);
    const { utterances } = stubSpeech();
    await renderTool(<SpanishAlphabetPage />, { path: '/spanish-alphabet' });
    fireEvent.click(card('RR'));
    await act(async () => {});
    expect(utterances).toEqual([{ text: 'erre', lang: 'es-ES', rate: 0.8 }]);
  });

  it('Play All Letters goes through the alphabet 1200 ms apart; Stop clears the highlight', async () => {
    const played = stubAudio();
    const { synth } = stubSpeech();
    await renderTool(<SpanishAlphabetPage />, { path: '/spanish-alphabet' });
    vi.useFakeTimers();
    fireEvent.click(screen.getByRole('button', { name: 'Play All Letters' }));
    expect(screen.getByRole('button', { name: 'Play All Letters' })).toBeDisabled();
    expect(highlighted()).toEqual(['Play A']);
    await act(() => vi.advanceTimersByTimeAsync(1200 * 3));
    expect(highlighted()).toEqual(['Play Ch']);
    expect(played.map((p) => p.src.split('/').pop())).toEqual(['a.mp3', 'b.mp3', 'c.mp3', 'ch.mp3']);
    fireEvent.click(screen.getByRole('button', { name: 'Stop' }));
    expect(highlighted()).toEqual([]);
    expect(synth.cancel).toHaveBeenCalled();
    expect(screen.getByRole('button', { name: 'Play All Letters' })).toBeEnabled();
    await act(() => vi.advanceTimersByTimeAsync(1200 * 5));
    expect(played).toHaveLength(4);
  });
});
