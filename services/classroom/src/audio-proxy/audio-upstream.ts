import type { LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';
import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { Agent, errors as undiciErrors, type Dispatcher } from 'undici';
import { AUDIO_PROXY_CONFIG, type AudioProxyConfig } from './audio-proxy.config';
import { AudioProxyError, AudioProxyMessages as M } from './audio-proxy.errors';
import { AUDIO_PROXY_NETWORK, type AudioProxyNetwork } from './audio-proxy.network';
import { checkResolved } from './target-rules';

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

  /** One GET of a checked URL; transport failures become the proxy's 502/504 (or the address refusal). */
  async get(url: URL, headers: Record<string, string>): Promise<Dispatcher.ResponseData> {
    // The time cap of this hop covers connecting and the headers only; the body has its own (the service's).
    const abort = new AbortController();
    const timer = setTimeout(() => abort.abort(), this.config.CLASSROOM_AUDIO_PROXY_TIMEOUT_MS);
    try {
      return await this.agent.request({
        origin: url.origin,
        path: `${url.pathname}${url.search}`,
        method: 'GET',
        headers,
        signal: abort.signal,
      });
    } catch (error) {
      throw asProxyError(error, this.config);
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
