import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AlphabetPlayer, type AudioLike, type PlayerDeps } from './alphabet-player';
import { SPANISH_LETTERS } from './spanish-letters';

class FakeAudio implements AudioLike {
  volume = 1;
  paused = true;
  private errorListeners: (() => void)[] = [];
  constructor(
    readonly url: string,
    private readonly outcome: 'plays' | 'rejects' | 'errors',
  ) {}
  play() {
    this.paused = false;
    if (this.outcome === 'rejects') return Promise.reject(new Error('NotAllowedError'));
    if (this.outcome === 'errors') queueMicrotask(() => this.errorListeners.forEach((l) => l()));
    return Promise.resolve();
  }
  pause() {
    this.paused = true;
  }
  addEventListener(_type: 'error', listener: () => void) {
    this.errorListeners.push(listener);
  }
}

function setup(outcome: 'plays' | 'rejects' | 'errors' = 'plays') {
  const audios: FakeAudio[] = [];
  const spoken: { text: string; lang: string; rate: number }[] = [];
  const highlights: (string | null)[] = [];
  const playingAll: boolean[] = [];
  const speech = {
    speak: vi.fn((text: string, lang: string, rate: number) => spoken.push({ text, lang, rate })),
    cancel: vi.fn(),
  };
  const deps: PlayerDeps = {
    createAudio: (url) => {
      const a = new FakeAudio(url, outcome);
      audios.push(a);
      return a;
    },
    speech,
    setTimer: (fn, ms) => setTimeout(fn, ms),
    clearTimer: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
    onHighlight: (l) => highlights.push(l),
    onPlayingAll: (p) => playingAll.push(p),
  };
  const player = new AlphabetPlayer(SPANISH_LETTERS, deps);
  const current = () => highlights.at(-1) ?? null;
  return { player, audios, spoken, speech, current, playingAll };
}

describe('AlphabetPlayer', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('plays one letter from its file at volume 0.7 and highlights it for 800 ms', async () => {
    const { player, audios, current, spoken } = setup();
    player.playOne(SPANISH_LETTERS[16]);
    expect(audios[0].url).toBe('/sounds/spanish/%C3%B1.mp3');
    expect(audios[0].volume).toBe(0.7);
    expect(current()).toBe('Ñ');
    await vi.advanceTimersByTimeAsync(799);
    expect(current()).toBe('Ñ');
    await vi.advanceTimersByTimeAsync(1);
    expect(current()).toBeNull();
    expect(spoken).toEqual([]);
  });

  it('falls back to speech (es-ES, rate 0.8) once when the file fails to load', async () => {
    const { player, spoken } = setup('errors');
    player.playOne(SPANISH_LETTERS[3]);
    await vi.advanceTimersByTimeAsync(0);
    expect(spoken).toEqual([{ text: 'che', lang: 'es-ES', rate: 0.8 }]);
  });

  it('falls back to speech when the browser refuses to play', async () => {
    const { player, spoken } = setup('rejects');
    player.playOne(SPANISH_LETTERS[0]);
    await vi.advanceTimersByTimeAsync(0);
    expect(spoken).toEqual([{ text: 'a', lang: 'es-ES', rate: 0.8 }]);
  });

  it('plays all 30 letters in order 1200 ms apart, then clears', async () => {
    const { player, audios, current, playingAll } = setup();
    player.playAll();
    expect(playingAll).toEqual([true]);
    expect(current()).toBe('A');
    await vi.advanceTimersByTimeAsync(1200);
    expect(current()).toBe('B');
    await vi.advanceTimersByTimeAsync(1200 * 2);
    expect(current()).toBe('Ch');
    await vi.advanceTimersByTimeAsync(1200 * 26);
    expect(current()).toBe('Z');
    expect(audios.map((a) => a.url.split('/').pop())).toHaveLength(30);
    await vi.advanceTimersByTimeAsync(1200);
    expect(current()).toBeNull();
    expect(playingAll).toEqual([true, false]);
  });

  it('Stop clears the highlight, pauses audio, cancels speech and ends Play All', async () => {
    const { player, audios, current, speech, playingAll } = setup();
    player.playAll();
    await vi.advanceTimersByTimeAsync(1200 * 4);
    player.stop();
    expect(current()).toBeNull();
    expect(audios.at(-1)?.paused).toBe(true);
    expect(speech.cancel).toHaveBeenCalled();
    expect(playingAll).toEqual([true, false]);
    await vi.advanceTimersByTimeAsync(1200 * 30);
    expect(audios).toHaveLength(5);
    expect(current()).toBeNull();
  });

  it('a late load error from a stopped letter does not speak', async () => {
    const { player, spoken } = setup('errors');
    player.playOne(SPANISH_LETTERS[0]);
    player.stop();
    await vi.advanceTimersByTimeAsync(0);
    expect(spoken).toEqual([]);
  });
});
