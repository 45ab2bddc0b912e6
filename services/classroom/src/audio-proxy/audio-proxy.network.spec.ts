import { IN_PROCESS_NETWORK, inProcessNetwork, productionAudioProxyNetwork } from './audio-proxy.network';

describe('the in-process network seam (browser journeys only)', () => {
  const slot = globalThis as Record<symbol, unknown>;
  afterEach(() => {
    delete slot[IN_PROCESS_NETWORK];
  });

  it('is absent unless code inside the process set it: the proxy then runs on the production network', () => {
    expect(inProcessNetwork()).toBeUndefined();
    expect(productionAudioProxyNetwork.extraAddressClasses).toEqual([]);
    expect(productionAudioProxyNetwork.plainHttp).toBe(false);
  });

  it('lays what a preload set over the production network, keeping the production allow-list', () => {
    const resolve = async () => [{ address: '127.0.0.1', family: 4 as const }];
    slot[IN_PROCESS_NETWORK] = { resolve, extraAddressClasses: ['loopback'], plainHttp: true };
    const network = inProcessNetwork();
    expect(network?.resolve).toBe(resolve);
    expect(network?.extraAddressClasses).toEqual(['loopback']);
    expect(network?.allowList).toBe(productionAudioProxyNetwork.allowList);
  });
});
