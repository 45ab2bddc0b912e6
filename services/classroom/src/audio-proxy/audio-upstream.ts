import type { LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';
import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import type { Writable } from 'node:stream';
import { Agent, errors as undiciErrors } from 'undici';
import { AUDIO_PROXY_CONFIG, type AudioProxyConfig } from './audio-proxy.config';
import { AudioProxyError, AudioProxyMessages as M } from './audio-proxy.errors';
import { AUDIO_PROXY_NETWORK, type AudioProxyNetwork } from './audio-proxy.network';
import { checkResolved } from './target-rules';
import type { UpstreamHeaders } from './upstream-answer';

/**
 * Where an answer goes, decided on its status and headers: the writable its body is written to. Throwing refuses
 * the answer (or ends a hop, for a redirect): the request is aborted with that error.
 */
export type AnswerSink = (status: number, headers: UpstreamHeaders) => Writable;

type LookupCallback = (error: Error | null, address: string | LookupAddress[], family?: number) => void;

/**
 * The proxy's HTTP client: one undici pool whose connections are made only to checked addresses. Each new
 * connection resolves the name once (the network's resolver), checks every address it got, and hands exactly
 * those to the socket — there is no second lookup for DNS rebinding to switch. TLS keeps the name for SNI and
 * certificate checks, and the Host header is the name. No proxy from the environment, no cookies, no automatic
 * redirects (the service follows them by hand).
 */
@Injectable()
export class AudioUpstream implements OnApplicationShutdown {
  private readonly agent: Agent;

  constructor(
    @Inject(AUDIO_PROXY_NETWORK) private readonly network: AudioProxyNetwork,
    @Inject(AUDIO_PROXY_CONFIG) private readonly config: AudioProxyConfig,
  ) {
    this.agent = new Agent({
      connect: {
        timeout: config.CLASSROOM_AUDIO_PROXY_TIMEOUT_MS,
        lookup: ((hostname: string, options: { all?: boolean }, callback: LookupCallback) => {
          this.network.resolve(hostname).then(
            (found) => {
              let checked;
              try {
                checked = checkResolved(found, this.network.extraAddressClasses);
              } catch (error) {
                callback(error as Error, '');
                return;
              }
              if (options.all) callback(null, checked);
              else callback(null, checked[0]!.address, checked[0]!.family);
            },
            () => callback(new AudioProxyError('unreachable', M.unreachable), ''),
          );
        }) as LookupFunction,
      },
      headersTimeout: config.CLASSROOM_AUDIO_PROXY_TIMEOUT_MS,
      bodyTimeout: config.CLASSROOM_AUDIO_PROXY_TIMEOUT_MS,
      keepAliveTimeout: 10_000,
      // The size cap, counted by the parser: a body announced or running past it fails the request or its stream.
      maxResponseSize: config.CLASSROOM_AUDIO_PROXY_MAX_BYTES,
    });
  }

  /**
   * One GET of a checked URL, its answer streamed straight into the writable that `sink` returns for its status
   * and headers: undici writes each chunk as the parser hands it over and stops reading the upstream while the
   * writable is full (backpressure), with no Readable or pipe in between. Resolves when the answer was passed on
   * whole. Whatever `sink` throws aborts the request (that connection is closed) and rejects with it. Time caps:
   * `CLASSROOM_AUDIO_PROXY_TIMEOUT_MS` for connecting and the headers (→ 504), then
   * `CLASSROOM_AUDIO_PROXY_STREAM_MS` for the body, past which the answer is cut off. Transport failures before
   * the headers become the proxy's 502/504 (or the address refusal); after `sink` has answered, the writable is
   * destroyed with the failure (the browser's answer is cut off) and the promise rejects with it.
   */
  async stream(url: URL, headers: Record<string, string>, sink: AnswerSink): Promise<void> {
    const abort = new AbortController();
    const timeout = () => abort.abort(new AudioProxyError('timeout', M.timeout));
    let timer = setTimeout(timeout, this.config.CLASSROOM_AUDIO_PROXY_TIMEOUT_MS);
    let answered = false;
    let refusal: unknown;
    try {
      await this.agent.stream(
        {
          origin: url.origin,
          path: `${url.pathname}${url.search}`,
          method: 'GET',
          headers,
          signal: abort.signal,
        },
        ({ statusCode, headers: answer }) => {
          clearTimeout(timer);
          let out: Writable;
          try {
            out = sink(statusCode, answer as UpstreamHeaders);
          } catch (error) {
            refusal = error;
            throw error;
          }
          answered = true;
          timer = setTimeout(timeout, this.config.CLASSROOM_AUDIO_PROXY_STREAM_MS);
          timer.unref();
          return out;
        },
      );
    } catch (error) {
      throw answered || error === refusal ? error : asProxyError(error, this.config);
    } finally {
      clearTimeout(timer);
    }
  }

  async onApplicationShutdown(): Promise<void> {
    await this.agent.destroy();
  }
}

function asProxyError(error: unknown, config: AudioProxyConfig): unknown {
  if (error instanceof AudioProxyError) return error;
  if (error instanceof undiciErrors.ResponseExceededMaxSizeError) {
    return new AudioProxyError('tooLarge', M.tooLarge(config.CLASSROOM_AUDIO_PROXY_MAX_BYTES));
  }
  if (
    error instanceof undiciErrors.ConnectTimeoutError ||
    error instanceof undiciErrors.HeadersTimeoutError ||
    // The signal's reason is a DOMException (not an Error of every realm): read its name.
    ['TimeoutError', 'AbortError'].includes((error as { name?: unknown } | null)?.name as string)
  ) {
    return new AudioProxyError('timeout', M.timeout);
  }
  return new AudioProxyError('unreachable', M.unreachable);
}
