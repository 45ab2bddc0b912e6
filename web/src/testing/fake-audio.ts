import { vi } from 'vitest';

/**
 * A stand-in for `window.Audio` (jsdom does not load media): records what the code set and lets a test fire the
 * media events. `play()` resolves unless `nextPlay` says otherwise. With `autoReady`, every source set answers
 * 'canplay' on the next microtask (for screens whose tests only need a playable button).
 */
export class FakeAudio extends EventTarget {
  static instances: FakeAudio[] = [];
  static nextPlay: 'resolve' | 'blocked' | 'fail' = 'resolve';
  static autoReady = false;
  preload = '';
  volume = 1;
  currentTime = 0;
  paused = true;
  #src = '';
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
  /** Starts the source over (a retry); a test fires what the new attempt answers. */
  readonly load = vi.fn();
  constructor(src?: string) {
    super();
    FakeAudio.instances.push(this);
    if (src) this.src = src;
  }
  get src() {
    return this.#src;
  }
  set src(value: string) {
    this.#src = value;
    if (FakeAudio.autoReady && value !== '') queueMicrotask(() => this.fire('canplay'));
  }
  fire(type: 'canplay' | 'ended' | 'error' | 'loadedmetadata') {
    if (type === 'ended') this.paused = true;
    this.dispatchEvent(new Event(type));
  }
}

/**
 * Installs FakeAudio as the global Audio (undone by the setup's vi.unstubAllGlobals) and returns a lookup of the
 * audio elements made for an address, oldest first (relative addresses as given, proxied ones as
 * `/api/audio-proxy?url=…`).
 */
export function installFakeAudio(options: { autoReady?: boolean } = {}) {
  FakeAudio.instances = [];
  FakeAudio.nextPlay = 'resolve';
  FakeAudio.autoReady = options.autoReady ?? false;
  vi.stubGlobal('Audio', FakeAudio);
  return (src: string) => FakeAudio.instances.filter((a) => a.src === src);
}
