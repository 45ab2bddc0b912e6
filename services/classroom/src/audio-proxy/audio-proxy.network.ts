import { lookup } from 'node:dns/promises';
import { AUDIO_PROXY_ALLOW_LIST } from './host-rules';
import type { AddressClass } from './address-rules';

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/**
 * Where the audio proxy may go and how it finds it. Production uses {@link productionAudioProxyNetwork}; the
 * provider token exists so that a test app can put a local HTTP server behind a cloud host's name (a resolver
 * mapping `drive.google.com` to 127.0.0.1, loopback let through, plain HTTP on its port). Nothing in the
 * service's own modules provides anything else.
 */
export interface AudioProxyNetwork {
  /** Every address of a host name: one lookup per connection, and the connection goes to a checked one. */
  resolve(hostname: string): Promise<ResolvedAddress[]>;
  /** Host names the proxy fetches from (see host-rules.ts for the syntax). */
  allowList: readonly string[];
  /** Address classes let through besides `public` (production: none). */
  extraAddressClasses: readonly AddressClass[];
  /**
   * Plain `http:` and ports other than 443 (production: false — `http:` links are upgraded to `https:` and only
   * the default port is fetched).
   */
  plainHttp: boolean;
}

/** The network the proxy uses: the override when a test app provides one, else the production network. */
export const AUDIO_PROXY_NETWORK = Symbol('AUDIO_PROXY_NETWORK');
/**
 * Provided only by test apps (a global module of their own, test/audio-proxy-support.ts): a local stand-in for
 * the cloud hosts. No module under src/ provides it, so production always runs on
 * {@link productionAudioProxyNetwork}. A registered symbol, so that bench/classroom (outside this project) can
 * provide it without importing the service's internals.
 */
export const AUDIO_PROXY_NETWORK_OVERRIDE = Symbol.for('district.classroom.audio-proxy.network-override');

/**
 * The browser journeys' seam (e2e/src/support/audio-standin-preload.cjs, loaded with `node -r` into the site's
 * processes by the e2e stacks only): a partial network under this registered symbol on `globalThis`, laid over the
 * production one. Only code already running inside the process can set it — no request, header or environment
 * variable reaches it — and nothing in the service or the image loads that preload.
 */
export const IN_PROCESS_NETWORK = Symbol.for('district.classroom.audio-proxy.in-process-network');

export function inProcessNetwork(): AudioProxyNetwork | undefined {
  const partial = (globalThis as Record<symbol, Partial<AudioProxyNetwork> | undefined>)[IN_PROCESS_NETWORK];
  return partial ? { ...productionAudioProxyNetwork, ...partial } : undefined;
}

export const productionAudioProxyNetwork: AudioProxyNetwork = Object.freeze({
  async resolve(hostname: string): Promise<ResolvedAddress[]> {
    const found = await lookup(hostname, { all: true, verbatim: true });
    return found.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
  },
  allowList: AUDIO_PROXY_ALLOW_LIST,
  extraAddressClasses: Object.freeze([]) as readonly AddressClass[],
  plainHttp: false,
});
