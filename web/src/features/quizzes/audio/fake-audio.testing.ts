import { vi } from 'vitest';

/**
 * A stand-in for `window.Audio` (jsdom does not load media): records what the code set and lets a test fire the
 * media events. `play()` resolves unless `nextPlay` says otherwise.
 */
export class FakeAudio extends EventTarget {
  static instances: FakeAudio[] = [];
  static nextPlay: 'resolve' | 'blocked' | 'fail' = 'resolve';
  src = '';
  preload = '';
  volume = 1;
  currentTime = 0;
  paused = true;
  readonly play = vi.fn(() => {
    const outcome = FakeAudio.nextPlay;
    if (outcome === 'blocked') return Promise.reject(new DOMException('blocked', 'NotAllowedError'));
    if (outcome === 'fail') return Promise.reject(new DOMException('unsupported', 'NotSupportedError'));
    this.paused = false;
    return Promise.resolve();
  });
  readonly pause = vi.fn(() => {
    this.paused = true;
  });
  constructor(src?: string) {
    super();
    if (src) this.src = src;
    FakeAudio.instances.push(this);
  }
  fire(type: 'canplay' | 'ended' | 'error' | 'loadedmetadata') {
    if (type === 'ended') this.paused = true;
    this.dispatchEvent(new Event(type));
  }
}

/** Installs FakeAudio as the global Audio (undone by the setup's vi.unstubAllGlobals). */
export function installFakeAudio() {
  FakeAudio.instances = [];
  FakeAudio.nextPlay = 'resolve';
  vi.stubGlobal('Audio', FakeAudio);
  /** The audio elements made for a link, oldest first. */
  return (src: string) => FakeAudio.instances.filter((a) => a.src === src);
}
