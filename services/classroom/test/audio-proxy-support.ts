import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Module, type DynamicModule } from '@nestjs/common';
import type { ServiceDefinition } from '@district/nest-common';
import {
  startTokenServiceForTest,
  type HttpClient,
  type TokenServiceTestApp,
  type TokenServiceTestOptions,
} from '@district/nest-common/testing';
import { defineClassroomService } from '../src';
import type { AddressClass } from '../src/audio-proxy/address-rules';
import {
  AUDIO_PROXY_NETWORK_OVERRIDE,
  productionAudioProxyNetwork,
  type AudioProxyNetwork,
  type ResolvedAddress,
} from '../src/audio-proxy/audio-proxy.network';

@Module({})
class AudioProxyTestRoot {}

/** A test-only global module providing the proxy's network override. */
@Module({})
class AudioProxyTestNetworkModule {
  static with(network: AudioProxyNetwork): DynamicModule {
    return {
      module: AudioProxyTestNetworkModule,
      global: true,
      providers: [{ provide: AUDIO_PROXY_NETWORK_OVERRIDE, useValue: network }],
      exports: [AUDIO_PROXY_NETWORK_OVERRIDE],
    };
  }
}

/**
 * The real classroom service; with `network`, the audio proxy's network provider is overridden for this app
 * only (the override token is provided by a global module of the test's own, next to the root module).
 */
export function startClassroomForProxy(
  network?: AudioProxyNetwork,
  options: Pick<TokenServiceTestOptions, 'env' | 'runtime'> = {},
): Promise<TokenServiceTestApp> {
  const define = (opts: { schema: string }): ServiceDefinition => {
    const definition = defineClassroomService(opts);
    if (!network) return definition;
    return {
      ...definition,
      rootModule: (runtime) => ({
        module: AudioProxyTestRoot,
        imports: [definition.rootModule(runtime), AudioProxyTestNetworkModule.with(network)],
      }),
    };
  };
  return startTokenServiceForTest('classroom_proxy', define, options);
}

/** A resolver for tests: names map to fixed addresses; anything else is not found. */
export function fixedResolver(names: Record<string, string[]>): AudioProxyNetwork['resolve'] {
  return async (hostname) => {
    const addresses = names[hostname];
    if (!addresses)
      throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return addresses.map((address): ResolvedAddress => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
}

/** The stand-in network: the production allow-list, loopback let through, plain HTTP on the stand-in's port. */
export function standInNetwork(
  names: Record<string, string[]>,
  extraAddressClasses: readonly AddressClass[] = ['loopback'],
): AudioProxyNetwork {
  return {
    resolve: fixedResolver(names),
    allowList: productionAudioProxyNetwork.allowList,
    extraAddressClasses,
    plainHttp: true,
  };
}

export interface SeenRequest {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
}

/** A local HTTP server standing in for a cloud host; records every request it gets. */
export interface StandIn {
  port: number;
  seen: SeenRequest[];
  /** The audio file it serves (ASCII, so tests can compare text). */
  audio: Buffer;
  close(): Promise<void>;
}

export type StandInRoute = (req: IncomingMessage, res: ServerResponse, standIn: StandIn) => void;

/** Serves `audio` at any path with Range support (200 or 206), like a download host. */
export function serveAudio(
  audio: Buffer,
  req: IncomingMessage,
  res: ServerResponse,
  type = 'audio/mpeg',
): void {
  const range = /^bytes=(\d*)-(\d*)$/.exec(req.headers.range ?? '');
  const headers = {
    'content-type': type,
    'accept-ranges': 'bytes',
    etag: '"v1"',
    'last-modified': 'Wed, 21 Oct 2026 07:28:00 GMT',
    'set-cookie': 'upstream_session=secret; Path=/',
    'x-upstream-secret': 'internal',
    'access-control-allow-origin': '*',
  };
  if (!range) {
    res.writeHead(200, { ...headers, 'content-length': audio.length });
    res.end(audio);
    return;
  }
  const start = range[1] === '' ? audio.length - Number(range[2]) : Number(range[1]);
  const end =
    range[1] !== '' && range[2] !== '' ? Math.min(Number(range[2]), audio.length - 1) : audio.length - 1;
  res.writeHead(206, {
    ...headers,
    'content-length': end - start + 1,
    'content-range': `bytes ${start}-${end}/${audio.length}`,
  });
  res.end(audio.subarray(start, end + 1));
}

export async function startStandIn(
  routes: Record<string, StandInRoute>,
  audioBytes = 64 * 1024,
): Promise<StandIn> {
  const audio = Buffer.alloc(audioBytes);
  for (let i = 0; i < audio.length; i++) audio[i] = 0x41 + (i % 26);
  const seen: SeenRequest[] = [];
  const standIn = { seen, audio } as StandIn;
  const server: Server = createServer((req, res) => {
    seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers });
    const path = new URL(req.url ?? '/', 'http://stand-in').pathname;
    const route =
      routes[path] ??
      Object.entries(routes).find(
        ([prefix]) => prefix.endsWith('*') && path.startsWith(prefix.slice(0, -1)),
      )?.[1];
    if (route) route(req, res, standIn);
    else serveAudio(audio, req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  standIn.port = (server.address() as AddressInfo).port;
  standIn.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return standIn;
}

export const proxyPath = (link: string) => `/api/audio-proxy?url=${encodeURIComponent(link)}`;

/**
 * A GET through the proxy with the client's cookies, raw (bytes and a cut-off body are visible): straight to
 * the service's address.
 */
export async function rawProxyGet(
  app: TokenServiceTestApp,
  client: HttpClient,
  link: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Headers; body: Buffer | null; error: unknown }> {
  const path = proxyPath(link);
  const cookie = client.jar.header(new URL(path, app.runtime.publicUrl));
  const response = await fetch(`${app.url}${path}`, {
    headers: { ...headers, ...(cookie ? { cookie } : {}) },
  });
  try {
    return {
      status: response.status,
      headers: response.headers,
      body: Buffer.from(await response.arrayBuffer()),
      error: null,
    };
  } catch (error) {
    return { status: response.status, headers: response.headers, body: null, error };
  }
}
