import type { Readable } from 'node:stream';
import { Inject, Injectable } from '@nestjs/common';
import { PLATFORM_LOGGER, RateLimiter, type Logger, type RateRule } from '@district/nest-common';
import { AUDIO_PROXY_CONFIG, AUDIO_PROXY_MAX_REDIRECTS, type AudioProxyConfig } from './audio-proxy.config';
import { AudioProxyError, AudioProxyMessages as M } from './audio-proxy.errors';
import { AUDIO_PROXY_NETWORK, type AudioProxyNetwork } from './audio-proxy.network';
import { AudioUpstream } from './audio-upstream';
import { toDirectDownload } from './share-links';
import { checkTarget, parseAudioLink } from './target-rules';
import {
  headersForBrowser,
  isPlayableType,
  mediaType,
  rangeToForward,
  REDIRECT_STATUSES,
  totalFromContentRange,
} from './upstream-answer';

/** What the controller sends: the status (200 or 206), the reduced headers and the streamed body. */
export interface ProxiedAudio {
  status: number;
  headers: Record<string, string>;
  body: Readable;
}

/**
 * `GET /api/audio-proxy?url=` (issue #13 item 3): audio from the allow-listed cloud hosts, streamed to a
 * signed-in user, never a way into the district's network. Every hop is checked (scheme, host, port) before it
 * is fetched and its addresses when it connects (AudioUpstream); redirects are followed here, at most 5.
 */
@Injectable()
export class AudioProxyService {
  private readonly rate: RateRule;

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
  }

  async open(link: string, range: string | string[] | undefined, userId: string): Promise<ProxiedAudio> {
    await this.limiter.consume([this.rate, userId]);
    const headers: Record<string, string> = {
      accept: 'audio/*, application/octet-stream;q=0.9, */*;q=0.1',
      'accept-encoding': 'identity',
      'user-agent': 'district-audio-proxy/1',
    };
    const forwardedRange = rangeToForward(range);
    if (forwardedRange !== undefined) headers.range = forwardedRange;

    let url = checkTarget(toDirectDownload(parseAudioLink(link)), this.network);
    for (let redirects = 0; ; redirects++) {
      const answer = await this.upstream.get(url, headers);
      if (REDIRECT_STATUSES.has(answer.statusCode)) {
        discard(answer.body);
        if (redirects >= AUDIO_PROXY_MAX_REDIRECTS)
          throw new AudioProxyError('tooManyRedirects', M.tooManyRedirects);
        url = checkTarget(nextHop(url, answer.headers.location), this.network);
        continue;
      }
      return this.accept(answer.statusCode, answer.headers, answer.body, url);
    }
  }

  private accept(
    status: number,
    headers: Record<string, string | string[] | undefined>,
    body: Readable,
    url: URL,
  ): ProxiedAudio {
    const refuse = (error: AudioProxyError): never => {
      discard(body);
      this.logger.info({ host: url.hostname, status, reason: error.reason }, 'audio proxy refused an answer');
      throw error;
    };
    if (status === 416) refuse(new AudioProxyError('rangeNotSatisfiable', M.rangeNotSatisfiable));
    if (status !== 200 && status !== 206)
      refuse(new AudioProxyError('upstreamStatus', M.upstreamStatus(status)));
    const type = mediaType(first(headers['content-type']));
    if (!isPlayableType(type)) refuse(new AudioProxyError('notAudio', M.notAudio));
    const max = this.config.CLASSROOM_AUDIO_PROXY_MAX_BYTES;
    const length = Number(first(headers['content-length']) ?? 0);
    const total = totalFromContentRange(first(headers['content-range']));
    if (length > max || (total !== null && total > max))
      refuse(new AudioProxyError('tooLarge', M.tooLarge(max)));
    return { status, headers: headersForBrowser(headers, type), body: this.capped(body, url) };
  }

  /**
   * The body as it arrives (never buffered whole), cut off past the streaming time cap. The size cap is the
   * client's own (undici's maxResponseSize, counted as the bytes are parsed): a body running past it ends in an
   * error, and the browser's answer is cut off with it.
   */
  private capped(body: Readable, url: URL): Readable {
    const timer = setTimeout(
      () => body.destroy(new AudioProxyError('timeout', M.timeout)),
      this.config.CLASSROOM_AUDIO_PROXY_STREAM_MS,
    );
    timer.unref();
    body.once('close', () => clearTimeout(timer));
    body.once('error', (error) => {
      this.logger.info({ host: url.hostname, err: error.message }, 'audio proxy cut an answer off');
    });
    return body;
  }
}

/** Drops an answer's body (destroying it makes undici close that connection; nobody reads its error). */
function discard(body: Readable): void {
  body.on('error', () => undefined);
  body.destroy();
}

function first(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** The Location of a redirect, resolved against the hop that sent it. */
function nextHop(from: URL, location: string | string[] | undefined): URL {
  const target = first(location);
  if (target === undefined || target === '') throw new AudioProxyError('badRedirect', M.badRedirect);
  try {
    return new URL(target, from);
  } catch {
    throw new AudioProxyError('badRedirect', M.badRedirect);
  }
}
