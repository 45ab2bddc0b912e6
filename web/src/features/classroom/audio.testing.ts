import { vi } from 'vitest';

/**
 * A stand-in for `window.Audio` (jsdom does not load media), recording the addresses asked for and letting a test
 * fire media events. The quizzes feature has the same helper; features may not import each other, so it would
 * belong in src/testing (see README).
 */
export class StubAudio extends EventTarget {
  static made: StubAudio[] = [];
  src = '';
  preload = '';
  volume = 1;
  currentTime = 0;
  readonly play = vi.fn(() => Promise.resolve());
  readonly pause = vi.fn();
  constructor() {
    super();
    StubAudio.made.push(this);
  }
  fire(type: 'canplay' | 'ended' | 'error') {
    this.dispatchEvent(new Event(type));
  }
}

export function installStubAudio() {
  StubAudio.made = [];
  vi.stubGlobal('Audio', StubAudio);
  /** The audio elements made for an address (relative addresses as given). */
  return (src: string) => StubAudio.made.filter((a) => a.src === src);
}
