/**
 * The audio proxy's memory of recently played small files (ADR 0025). A class plays the same few files at once
 * and seeks in them: after one whole download of a file (through the same checked hops as every answer), its
 * Range requests are answered from here for a while instead of each relaying the bytes from the host again.
 *
 * Bounded three ways: the total bytes kept (least recently played dropped first), the size of one file, and how
 * long a file is kept. A file is only ever kept under the checked first hop of a link; what it holds came through
 * the same checks, redirects and type and size rules as a streamed answer, with no cookies or credentials sent, so
 * it is the same bytes for every signed-in user who asks for that link.
 */

/** A kept file: its bytes, and the browser's headers for the whole file (type and validators; no length/range). */
export interface CachedAudio {
  readonly body: Buffer;
  readonly headers: Readonly<Record<string, string>>;
}

interface Entry extends CachedAudio {
  readonly expiresAt: number;
}

export interface AudioCacheLimits {
  /** All files together; 0 keeps nothing. */
  maxBytes: number;
  /** One file. */
  maxFileBytes: number;
  /** How long a file is answered from memory after its download. */
  ttlMs: number;
}

export class AudioCache {
  private readonly entries = new Map<string, Entry>();
  /** Downloads under way: their links and sizes. */
  private readonly filling = new Map<string, number>();
  private fillingBytes = 0;
  private bytes = 0;

  constructor(
    private readonly limits: AudioCacheLimits,
    private readonly now: () => number = Date.now,
  ) {}

  /** The kept file for `key`, if fresh (it becomes the most recently played). */
  get(key: string): CachedAudio | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    this.entries.delete(key);
    if (entry.expiresAt <= this.now()) {
      this.bytes -= entry.body.length;
      return undefined;
    }
    this.entries.set(key, entry);
    return entry;
  }

  /**
   * Whether a download of `key`, `size` bytes in all, should start now: the cache is on, the file fits, it is not
   * kept already, no download of it is under way, and the downloads under way hold less than the cache's bytes
   * together (each allocates its file's size while it runs: many users starting many files at once must not add up
   * to more memory than the cache itself). True marks the download as started (`settle` ends it).
   */
  claimFill(key: string, size: number | null): boolean {
    const { maxBytes, maxFileBytes } = this.limits;
    if (size === null || size <= 0 || size > maxFileBytes || size > maxBytes) return false;
    if (this.filling.has(key) || this.fillingBytes + size > maxBytes || this.get(key) !== undefined)
      return false;
    this.filling.set(key, size);
    this.fillingBytes += size;
    return true;
  }

  /** Ends the download `claimFill` started: keeps `file` (when it came whole), dropping the least recent. */
  settle(key: string, file: CachedAudio | undefined): void {
    const claimed = this.filling.get(key);
    if (claimed !== undefined) {
      this.filling.delete(key);
      this.fillingBytes -= claimed;
    }
    if (file === undefined) return;
    const size = file.body.length;
    if (size > this.limits.maxFileBytes || size > this.limits.maxBytes) return;
    const previous = this.entries.get(key);
    if (previous !== undefined) {
      this.entries.delete(key);
      this.bytes -= previous.body.length;
    }
    for (const [oldKey, old] of this.entries) {
      if (this.bytes + size <= this.limits.maxBytes) break;
      this.entries.delete(oldKey);
      this.bytes -= old.body.length;
    }
    this.entries.set(key, { ...file, expiresAt: this.now() + this.limits.ttlMs });
    this.bytes += size;
  }

  /** Bytes kept now (expired files count until they are next looked up or pushed out). */
  get size(): number {
    return this.bytes;
  }
}

/** What to answer from a kept file for a Range header already reduced by `rangeToForward` (or none). */
export type CachedAnswer =
  | { status: 200 | 206; headers: Record<string, string>; start: number; end: number }
  | { status: 416; size: number };

/**
 * RFC 9110 §14 for one range: `bytes=a-b` (b past the end is the end), `bytes=a-`, `bytes=-n` (the last n);
 * a first byte past the end, or a suffix of 0, is not satisfiable (416); `a > b` is not a valid range and is
 * ignored (the whole file, 200), as a server ignores a Range it cannot read. `end` is exclusive.
 */
export function answerFromCache(file: CachedAudio, range: string | undefined): CachedAnswer {
  const size = file.body.length;
  const whole = (): CachedAnswer => ({
    status: 200,
    headers: { ...file.headers, 'content-length': String(size), 'accept-ranges': 'bytes' },
    start: 0,
    end: size,
  });
  if (range === undefined) return whole();
  const match = /^bytes=(\d*)-(\d*)$/.exec(range);
  if (match === null) return whole();
  const [, from, to] = match as unknown as [string, string, string];
  if (from === '' && to === '') return whole();
  let start: number;
  let last: number;
  if (from === '') {
    const suffix = Number(to);
    if (suffix === 0) return { status: 416, size };
    start = Math.max(0, size - suffix);
    last = size - 1;
  } else {
    start = Number(from);
    if (to !== '' && Number(to) < start) return whole();
    if (start >= size) return { status: 416, size };
    last = to === '' ? size - 1 : Math.min(Number(to), size - 1);
  }
  return {
    status: 206,
    headers: {
      ...file.headers,
      'content-length': String(last - start + 1),
      'content-range': `bytes ${start}-${last}/${size}`,
      'accept-ranges': 'bytes',
    },
    start,
    end: last + 1,
  };
}
