import { Writable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { Inject, Injectable } from '@nestjs/common';
import { PLATFORM_LOGGER, RateLimiter, type Logger, type RateRule } from '@district/nest-common';
import { AudioCache, answerFromCache, type CachedAudio } from './audio-cache';
import { AUDIO_PROXY_CONFIG, AUDIO_PROXY_MAX_REDIRECTS, type AudioProxyConfig } from './audio-proxy.config';
import { AudioProxyError, AudioProxyMessages as M } from './audio-proxy.errors';
import { AUDIO_PROXY_NETWORK, type AudioProxyNetwork } from './audio-proxy.network';
import { AudioUpstream } from './audio-upstream';
import { toDirectDownload } from './share-links';
import { checkTarget, parseAudioLink } from './target-rules';
import {
  firstValue,
  headersForBrowser,
  isPlayableType,
  mediaType,
  rangeToForward,
  REDIRECT_STATUSES,
  totalFromContentRange,
  type UpstreamHeaders,
} from './upstream-answer';

/**
 * Where the browser's answer goes once the upstream's is accepted: sends the status (200 or 206) and the reduced
 * headers, and returns the writable the body is streamed into — or undefined when the headers are the whole
 * answer (HEAD), and the upstream's body is dropped.
 */
export type AudioListener = (status: number, headers: Record<string, string>) => Writable | undefined;

/** A redirect ends its hop by aborting it (its connection is closed, its body never read). */
class Redirected extends Error {
  constructor(readonly location: string | string[] | undefined) {
    super('redirected');
  }
}

/** HEAD: the headers were sent; the upstream's body is not wanted. */
class BodyNotWanted extends Error {}

/** Decides on an accepted hop's answer: the writable its body goes to, or undefined when the body is not wanted. */
type OnAnswer = (status: number, answer: UpstreamHeaders, url: URL) => Writable | undefined;

/** The browser's headers a kept file is answered with (its length and range are the answer's own). */
const KEPT_HEADERS = [
  'content-type',
  'x-content-type-options',
  'content-security-policy',
  'cache-control',
  'etag',
  'last-modified',
];

/** How many first hops (link → checked download URL) are remembered: a class's players ask for the same files. */
const FIRST_HOPS_KEPT = 512;

/**
 * `GET /api/audio-proxy?url=` (issue #13 item 3): audio from the allow-listed cloud hosts, streamed to a
 * signed-in user, never a way into the district's network. Every hop is checked (scheme, host, port) before it
 * is fetched and its addresses when it connects (AudioUpstream); redirects are followed here, at most 5.
 */
@Injectable()
export class AudioProxyService {
  private readonly rate: RateRule;
  /**
   * The checked first hop of each recently played link. `checkTarget(toDirectDownload(parseAudioLink(link)))`
   * depends only on the link and the network's fixed policy, so a link checked once is not parsed, rewritten and
   * checked again on each Range request; refused links are not kept (they throw every time). The addresses are
   * still resolved and checked on every new connection (AudioUpstream), and redirect hops are always checked.
   */
  private readonly firstHops = new Map<string, URL>();
  /** Recently played small files, answered from memory (ADR 0025). */
  private readonly cache: AudioCache;

  constructor(
    @Inject(AUDIO_PROXY_NETWORK) private readonly network: AudioProxyNetwork,
    @Inject(AUDIO_PROXY_CONFIG) private readonly config: AudioProxyConfig,
    @Inject(AudioUpstream) private readonly upstream: AudioUpstream,
    @Inject(RateLimiter) private readonly limiter: RateLimiter,
    @Inject(PLATFORM_LOGGER) private readonly logger: Logger,
  ) {
    this.rate = {
      name: 'classroom.audio-proxy.user',
      limit: config.CLASSROOM_AUDIO_PROXY_RATE_LIMIT,
      windowMs: config.CLASSROOM_AUDIO_PROXY_RATE_WINDOW_MS,
      message: M.rateLimited,
    };
    this.cache = new AudioCache({
      maxBytes: config.CLASSROOM_AUDIO_PROXY_CACHE_BYTES,
      maxFileBytes: Math.min(
        config.CLASSROOM_AUDIO_PROXY_CACHE_FILE_BYTES,
        config.CLASSROOM_AUDIO_PROXY_MAX_BYTES,
      ),
      ttlMs: config.CLASSROOM_AUDIO_PROXY_CACHE_TTL_MS,
    });
  }

  /**
   * Plays `link` to `listener`: resolves once the answer was streamed whole (or cut off: the listener's writable
   * is then destroyed, which is all the browser can be told once its headers are out). Rejects with the refusal
   * when no answer was accepted, before anything was sent.
   */
  async play(
    link: string,
    range: string | string[] | undefined,
    userId: string,
    listener: AudioListener,
  ): Promise<void> {
    await this.limiter.consume([this.rate, userId]);
    const first = this.firstHop(link);
    const forwardedRange = rangeToForward(range);
    const kept = this.cache.get(first.href);
    if (kept !== undefined) return this.answerKept(kept, forwardedRange, listener);

    const headers: Record<string, string> = { ...UPSTREAM_HEADERS };
    if (forwardedRange !== undefined) headers.range = forwardedRange;
    let accepted = false;
    let at = first;
    try {
      await this.follow(first, headers, (status, answer, url) => {
        at = url;
        const browser = this.accept(status, answer, url);
        accepted = true;
        this.keepLater(first, status, answer);
        return listener(status, browser);
      });
    } catch (error) {
      if (!accepted) throw error;
      // The headers are out: the answer was cut off (size or time cap, upstream failure, listener gone).
      if ((error as { code?: unknown }).code !== 'ERR_STREAM_PREMATURE_CLOSE') {
        this.logger.info(
          { host: at.hostname, err: (error as Error).message },
          'audio proxy cut an answer off',
        );
      }
    }
  }

  /**
   * GETs a checked first hop, following redirects by hand (at most 5, each hop checked again), and hands the
   * accepted hop's answer to `onAnswer`. Resolves when the body was passed on whole (or was not wanted).
   */
  private async follow(first: URL, headers: Record<string, string>, onAnswer: OnAnswer): Promise<void> {
    let url = first;
    for (let redirects = 0; ; redirects++) {
      try {
        await this.upstream.stream(url, headers, (status, answer) => {
          if (REDIRECT_STATUSES.has(status)) throw new Redirected(answer.location);
          const out = onAnswer(status, answer, url);
          if (out === undefined) throw new BodyNotWanted();
          return out;
        });
        return;
      } catch (error) {
        if (error instanceof BodyNotWanted) return;
        if (!(error instanceof Redirected)) throw error;
        if (redirects >= AUDIO_PROXY_MAX_REDIRECTS)
          throw new AudioProxyError('tooManyRedirects', M.tooManyRedirects);
        url = checkTarget(nextHop(url, error.location), this.network);
      }
    }
  }

  /** A kept file's answer: the range asked for (or the whole file), from memory. */
  private async answerKept(
    kept: CachedAudio,
    range: string | undefined,
    listener: AudioListener,
  ): Promise<void> {
    const answer = answerFromCache(kept, range);
    if (answer.status === 416) throw new AudioProxyError('rangeNotSatisfiable', M.rangeNotSatisfiable);
    try {
      const out = listener(answer.status, answer.headers);
      if (out === undefined) return;
      // A view of the kept bytes, not a copy: the response holds it until the socket has taken it.
      out.end(kept.body.subarray(answer.start, answer.end));
      await finished(out);
    } catch (error) {
      if ((error as { code?: unknown }).code !== 'ERR_STREAM_PREMATURE_CLOSE') {
        this.logger.info({ err: (error as Error).message }, 'audio proxy cut a kept answer off');
      }
    }
  }

  /**
   * After an accepted answer of a file small enough to keep: one whole download of it in the background (one at a
   * time per link), so the link's next Range requests are answered from memory (ADR 0025).
   */
  private keepLater(first: URL, status: number, answer: UpstreamHeaders): void {
    const announced =
      status === 206
        ? totalFromContentRange(firstValue(answer['content-range']))
        : Number(firstValue(answer['content-length']) ?? Number.NaN);
    const size = Number.isSafeInteger(announced) ? (announced as number) : null;
    const key = first.href;
    if (size === null || !this.cache.claimFill(key, size)) return;
    this.download(first, size).then(
      (file) => this.cache.settle(key, file),
      (error: unknown) => {
        this.cache.settle(key, undefined);
        this.logger.info(
          { host: first.hostname, err: (error as Error).message },
          'audio proxy could not keep a file',
        );
      },
    );
  }

  /** The whole file behind `first`, if it comes whole, as announced (`size` bytes), under every answer rule. */
  private async download(first: URL, size: number): Promise<CachedAudio | undefined> {
    const body = Buffer.allocUnsafe(size);
    let received = 0;
    let browser: Record<string, string> | undefined;
    await this.follow(first, { ...UPSTREAM_HEADERS }, (status, answer, url) => {
      if (status !== 200) throw new AudioProxyError('upstreamStatus', M.upstreamStatus(status));
      browser = this.accept(status, answer, url);
      if (Number(firstValue(answer['content-length'])) !== size) throw new Error('the file changed size');
      return new Writable({
        write(chunk: Buffer, _encoding, done) {
          if (received + chunk.length > size) return done(new Error('the file ran past its announced size'));
          chunk.copy(body, received);
          received += chunk.length;
          done();
        },
      });
    });
    if (received !== size || browser === undefined) return undefined;
    const headers: Record<string, string> = {};
    for (const name of KEPT_HEADERS) if (browser[name] !== undefined) headers[name] = browser[name];
    return { body, headers };
  }

  private firstHop(link: string): URL {
    const known = this.firstHops.get(link);
    if (known !== undefined) return known;
    const url = checkTarget(toDirectDownload(parseAudioLink(link)), this.network);
    if (this.firstHops.size >= FIRST_HOPS_KEPT) this.firstHops.delete(this.firstHops.keys().next().value!);
    this.firstHops.set(link, url);
    return url;
  }

  /** The browser's headers for an answer that may be passed on; anything else is refused (and logged). */
  private accept(status: number, headers: UpstreamHeaders, url: URL): Record<string, string> {
    const refuse = (error: AudioProxyError): never => {
      this.logger.info({ host: url.hostname, status, reason: error.reason }, 'audio proxy refused an answer');
      throw error;
    };
    if (status === 416) refuse(new AudioProxyError('rangeNotSatisfiable', M.rangeNotSatisfiable));
    if (status !== 200 && status !== 206)
      refuse(new AudioProxyError('upstreamStatus', M.upstreamStatus(status)));
    const type = mediaType(firstValue(headers['content-type']));
    if (!isPlayableType(type)) refuse(new AudioProxyError('notAudio', M.notAudio));
    const max = this.config.CLASSROOM_AUDIO_PROXY_MAX_BYTES;
    const length = Number(firstValue(headers['content-length']) ?? 0);
    const total = totalFromContentRange(firstValue(headers['content-range']));
    if (length > max || (total !== null && total > max))
      refuse(new AudioProxyError('tooLarge', M.tooLarge(max)));
    return headersForBrowser(headers, type);
  }
}

/** What every upstream request sends: no cookies, no credentials, no compression (Range is added per request). */
const UPSTREAM_HEADERS: Readonly<Record<string, string>> = {
  accept: 'audio/*, application/octet-stream;q=0.9, */*;q=0.1',
  'accept-encoding': 'identity',
  'user-agent': 'district-audio-proxy/1',
};

/** The Location of a redirect, resolved against the hop that sent it. */
function nextHop(from: URL, location: string | string[] | undefined): URL {
  const target = firstValue(location);
  if (target === undefined || target === '') throw new AudioProxyError('badRedirect', M.badRedirect);
  try {
    return new URL(target, from);
  } catch {
    throw new AudioProxyError('badRedirect', M.badRedirect);
  }
}
