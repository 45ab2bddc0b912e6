// Test preload for the browser journeys only (e2e/src/support/stacks.ts runs the site with `-r` this file):
// makes the classroom service's audio proxy resolve the stand-in cloud host to the local stand-in server and let
// loopback and plain HTTP through. Production never loads it; without it the proxy uses its production network.
'use strict';
const hosts = JSON.parse(process.env.E2E_AUDIO_STANDIN_HOSTS || '{}');
globalThis[Symbol.for('district.classroom.audio-proxy.in-process-network')] = {
  async resolve(hostname) {
    const address = hosts[hostname];
    if (!address) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return [{ address, family: 4 }];
  },
  extraAddressClasses: ['loopback'],
  plainHttp: true,
};
