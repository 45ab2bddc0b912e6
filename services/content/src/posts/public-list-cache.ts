import type { PublicPostsQuery } from '@district/contracts';

/** One page of the public list as sent: the exact JSON bytes, their ETag, and the total for X-Total-Count. */
export interface RenderedPage {
  body: Buffer;
  etag: string;
  total: number;
}

export interface PublicListCacheOptions {
  /** Most bytes of page bodies kept; the least recently used pages go first. */
  maxBytes?: number;
  /**
   * A page older than this is built again even without an invalidation: a bound on staleness should a change
   * ever reach the database without its notification (e.g. triggers disabled during a restore).
   */
  maxAgeMs?: number;
  now?: () => number;
}

interface Entry {
  page: RenderedPage;
  storedAt: number;
}

interface Fill {
  generation: number;
  promise: Promise<RenderedPage>;
}

export const DEFAULT_CACHE_BYTES = 16 * 1024 * 1024;
export const DEFAULT_CACHE_MAX_AGE_MS = 60_000;

/**
 * Rendered pages of the public post list, in this process's memory, so a visitor's request costs no query,
 * no serialisation and no hashing. Correctness rests on three rules:
 *
 * - Pages are only kept while invalidations can be heard (`setHearing(true)`): a replica that has lost its
 *   notification channel serves every request from the database, so it can never miss a change.
 * - Every invalidation moves to a new generation; a page built from a query started in an older generation is
 *   never stored (it may predate the change), so a slow query cannot put an old page back after a change.
 * - Requests for the same page while it is being built share the one query (a burst after an invalidation
 *   costs one query per page, not one per request), but only within a generation.
 */
export class PublicListCache {
  private readonly pages = new Map<string, Entry>();
  private readonly fills = new Map<string, Fill>();
  private readonly maxBytes: number;
  private readonly maxAgeMs: number;
  private readonly now: () => number;
  private generation = 0;
  private bytes = 0;
  private hearing = false;

  constructor(options: PublicListCacheOptions = {}) {
    this.maxBytes = options.maxBytes ?? DEFAULT_CACHE_BYTES;
    this.maxAgeMs = options.maxAgeMs ?? DEFAULT_CACHE_MAX_AGE_MS;
    this.now = options.now ?? Date.now;
  }

  /** The cache key of a (validated) list query: the same page always has the same key. */
  static key(query: Pick<PublicPostsQuery, 'q' | 'category' | 'limit' | 'page'>): string {
    return JSON.stringify([query.q ?? '', query.category ?? '', query.limit, query.page]);
  }

  /** Whether pages are being kept (invalidations are heard). */
  get active(): boolean {
    return this.hearing;
  }

  get size(): number {
    return this.pages.size;
  }

  /**
   * The page for `key`: kept, or being built in this generation, or built now by `build` (and kept if no
   * invalidation happened meanwhile).
   */
  async load(key: string, build: () => Promise<RenderedPage>): Promise<RenderedPage> {
    const kept = this.get(key);
    if (kept) return kept;
    if (!this.hearing) return build();
    const running = this.fills.get(key);
    if (running && running.generation === this.generation) return running.promise;
    return this.fill(key, build);
  }

  /**
   * Builds the page for `key` whatever is kept or being built (a client bypassing caches gets an answer made
   * after its request arrived), and keeps the result for the others.
   */
  refresh(key: string, build: () => Promise<RenderedPage>): Promise<RenderedPage> {
    if (!this.hearing) return build();
    return this.fill(key, build);
  }

  /** Forgets every page: the posts or categories changed. */
  invalidate(): void {
    this.generation += 1;
    this.pages.clear();
    this.fills.clear();
    this.bytes = 0;
  }

  /** Told by the notification listener whether changes can be heard; both transitions forget every page. */
  setHearing(hearing: boolean): void {
    if (this.hearing === hearing) return;
    this.hearing = hearing;
    this.invalidate();
  }

  private get(key: string): RenderedPage | undefined {
    const entry = this.pages.get(key);
    if (!entry) return undefined;
    if (this.now() - entry.storedAt >= this.maxAgeMs) {
      this.forget(key, entry);
      return undefined;
    }
    // Most recently used last, so eviction takes the first.
    this.pages.delete(key);
    this.pages.set(key, entry);
    return entry.page;
  }

  private fill(key: string, build: () => Promise<RenderedPage>): Promise<RenderedPage> {
    const generation = this.generation;
    const promise = build().then((page) => {
      if (generation === this.generation && this.hearing) this.store(key, page);
      return page;
    });
    const fill = { generation, promise };
    this.fills.set(key, fill);
    const done = () => {
      if (this.fills.get(key) === fill) this.fills.delete(key);
    };
    promise.then(done, done);
    return promise;
  }

  private store(key: string, page: RenderedPage): void {
    const size = page.body.length;
    // A page that would push out a large share of the others is served but not kept.
    if (size > this.maxBytes / 8) return;
    const old = this.pages.get(key);
    if (old) this.forget(key, old);
    this.pages.set(key, { page, storedAt: this.now() });
    this.bytes += size;
    for (const [oldest, entry] of this.pages) {
      if (this.bytes <= this.maxBytes) break;
      this.forget(oldest, entry);
    }
  }

  private forget(key: string, entry: Entry): void {
    this.pages.delete(key);
    this.bytes -= entry.page.body.length;
  }
}
