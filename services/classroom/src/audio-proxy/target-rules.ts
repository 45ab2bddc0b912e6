import { canonicalHost, classifyAddress, type AddressClass } from './address-rules';
import { AudioProxyError, AudioProxyMessages as M } from './audio-proxy.errors';
import { isAllowedHost } from './host-rules';
import type { ResolvedAddress } from './audio-proxy.network';

export interface TargetPolicy {
  allowList: readonly string[];
  extraAddressClasses: readonly AddressClass[];
  plainHttp: boolean;
}

const MAX_URL_LENGTH = 4096;

/** The `url` parameter as a URL; only absolute http(s) links are taken (file:, ftp:, data:, javascript: … are not). */
export function parseAudioLink(text: string): URL {
  if (text.length === 0 || text.length > MAX_URL_LENGTH)
    throw new AudioProxyError('invalidUrl', M.invalidUrl);
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    throw new AudioProxyError('invalidUrl', M.invalidUrl);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new AudioProxyError('unsupportedScheme', M.unsupportedScheme);
  }
  return url;
}

/**
 * The URL one hop fetches, or the reason it may not: http(s) only (plain http upgraded unless the policy allows
 * it), no user name or password, a host that is a name on the allow-list (an address never is: every numeric
 * spelling is read as its address first), the default port. The URL comes back with its host canonical and
 * without its fragment.
 */
export function checkTarget(input: URL, policy: TargetPolicy): URL {
  const url = new URL(input.href);
  url.hash = '';
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new AudioProxyError('unsupportedScheme', M.unsupportedScheme);
  }
  if (url.username !== '' || url.password !== '') throw new AudioProxyError('credentials', M.credentials);
  const host = canonicalHost(url.hostname);
  if (host === null) throw new AudioProxyError('invalidUrl', M.invalidUrl);
  if (host.kind === 'ip') {
    if (!isAllowedAddress(host.host, policy.extraAddressClasses)) {
      throw new AudioProxyError('addressNotAllowed', M.addressNotAllowed);
    }
    throw new AudioProxyError('hostNotAllowed', M.hostNotAllowed);
  }
  if (!isAllowedHost(host.host, policy.allowList))
    throw new AudioProxyError('hostNotAllowed', M.hostNotAllowed);
  url.hostname = host.host;
  if (!policy.plainHttp) {
    if (url.port !== '') throw new AudioProxyError('portNotAllowed', M.portNotAllowed);
    if (url.protocol === 'http:') url.protocol = 'https:';
  }
  return url;
}

export function isAllowedAddress(address: string, extraClasses: readonly AddressClass[]): boolean {
  let cls: AddressClass;
  try {
    cls = classifyAddress(address);
  } catch {
    return false;
  }
  return cls === 'public' || extraClasses.includes(cls);
}

/** Every address a name resolved to must pass, or none is used (a name with one private address is refused). */
export function checkResolved(
  addresses: readonly ResolvedAddress[],
  extraClasses: readonly AddressClass[],
): ResolvedAddress[] {
  if (addresses.length === 0) throw new AudioProxyError('unreachable', M.unreachable);
  if (!addresses.every((a) => isAllowedAddress(a.address, extraClasses))) {
    throw new AudioProxyError('addressNotAllowed', M.addressNotAllowed);
  }
  return [...addresses];
}
