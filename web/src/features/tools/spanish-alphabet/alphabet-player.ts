import type { SpanishLetter } from './spanish-letters';
import { letterAudioUrl } from './spanish-letters';

/** Spec section 9 and 4: highlight after a single play, and the pace of Play All. */
export const HIGHLIGHT_MS = 800;
export const PLAY_ALL_INTERVAL_MS = 1200;
/** Spec section 8: the fallback voice. */
export const SPEECH_LANG = 'es-ES';
export const SPEECH_RATE = 0.8;
export const AUDIO_VOLUME = 0.7;

/** The slice of HTMLAudioElement the player uses. */
export interface AudioLike {
  volume: number;
  play(): Promise<void>;
  pause(): void;
  addEventListener(type: 'error', listener: () => void): void;
}

/** The slice of window.speechSynthesis the player uses. */
export interface SpeechLike {
  speak(text: string, lang: string, rate: number): void;
  cancel(): void;
}

export interface PlayerDeps {
  createAudio(url: string): AudioLike;
  /** Null where the browser has no speech synthesis: then a failed file simply stays silent. */
  speech: SpeechLike | null;
  setTimer(fn: () => void, ms: number): unknown;
  clearTimer(handle: unknown): void;
  /** The letter to highlight, or null. */
  onHighlight(letter: string | null): void;
  /** Whether Play All is running, for the buttons. */
  onPlayingAll(playing: boolean): void;
}

/**
 * Plays letter recordings with the spec's timings. A recording that fails to load or is refused by the browser
 * is spoken by speech synthesis instead (es-ES, rate 0.8), exactly once.
 */
export class AlphabetPlayer {
  private audio: AudioLike | null = null;
  private timers: unknown[] = [];
  private playingAll = false;

  constructor(
    private readonly letters: readonly SpanishLetter[],
    private readonly deps: PlayerDeps,
  ) {}

  /** Plays one letter; the highlight stays for 800 ms. Stops Play All if it was running. */
  playOne(letter: SpanishLetter): void {
    this.stop();
    this.sound(letter);
    this.deps.onHighlight(letter.letter);
    this.later(() => this.deps.onHighlight(null), HIGHLIGHT_MS);
  }

  /** Plays every letter in order, one every 1200 ms, until the end or stop(). */
  playAll(): void {
    this.stop();
    this.playingAll = true;
    this.deps.onPlayingAll(true);
    this.step(0);
  }

  private step(index: number): void {
    const letter = this.letters[index];
    if (!letter) {
      this.finishAll();
      return;
    }
    this.sound(letter);
    this.deps.onHighlight(letter.letter);
    this.later(() => this.step(index + 1), PLAY_ALL_INTERVAL_MS);
  }

  /** Clears the highlight, pauses audio, cancels speech and any pending step. */
  stop(): void {
    this.timers.forEach((t) => this.deps.clearTimer(t));
    this.timers = [];
    this.audio?.pause();
    this.audio = null;
    this.deps.speech?.cancel();
    this.deps.onHighlight(null);
    if (this.playingAll) {
      this.playingAll = false;
      this.deps.onPlayingAll(false);
    }
  }

  private finishAll(): void {
    this.playingAll = false;
    this.deps.onHighlight(null);
    this.deps.onPlayingAll(false);
  }

  private later(fn: () => void, ms: number): void {
    const handle = this.deps.setTimer(() => {
      this.timers = this.timers.filter((t) => t !== handle);
      fn();
    }, ms);
    this.timers.push(handle);
  }

  private sound(letter: SpanishLetter): void {
    this.audio?.pause();
    this.deps.speech?.cancel();
    const audio = this.deps.createAudio(letterAudioUrl(letter.letter));
    audio.volume = AUDIO_VOLUME;
    this.audio = audio;
    let fellBack = false;
    const fallback = () => {
      // Only for the sound still current: a late error from a letter already replaced must not speak over it.
      if (fellBack || this.audio !== audio) return;
      fellBack = true;
      this.deps.speech?.speak(letter.name, SPEECH_LANG, SPEECH_RATE);
    };
    audio.addEventListener('error', fallback);
    audio.play().catch(fallback);
  }
}

/** The real browser pieces, or null speech where the API is missing. */
export function browserPlayerDeps(
  onHighlight: (letter: string | null) => void,
  onPlayingAll: (playing: boolean) => void,
): PlayerDeps {
  const synth = typeof window !== 'undefined' && 'speechSynthesis' in window ? window.speechSynthesis : null;
  return {
    createAudio: (url) => new Audio(url),
    speech: synth
      ? {
          speak(text, lang, rate) {
            const utterance = new SpeechSynthesisUtterance(text);
            utterance.lang = lang;
            utterance.rate = rate;
            synth.speak(utterance);
          },
          cancel: () => synth.cancel(),
        }
      : null,
    setTimer: (fn, ms) => window.setTimeout(fn, ms),
    clearTimer: (handle) => window.clearTimeout(handle as number),
    onHighlight,
    onPlayingAll,
  };
}
