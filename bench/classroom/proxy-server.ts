// The measured server of the classroom benchmark: the real classroom service (its module, the platform, a
// throwaway schema on the PostgreSQL at DATABASE_URL) whose audio proxy's network override maps the cloud
// host's name to the stand-in upstream on 127.0.0.1 — the only difference from production (the override token
// test apps use; address rules otherwise as in production, loopback let through for the stand-in).
// Prints {"url","pid","cookie","link"}, then its memory every 200 ms (reportMemory), and stops on SIGTERM
// (dropping its schema).
import { constants, PerformanceObserver } from 'node:perf_hooks';
import { Module, type DynamicModule } from '@nestjs/common';
import { startService } from '@district/nest-common';
import {
  createTestRuntime,
  dropSchema,
  HttpClient,
  TEST_DATABASE_URL,
  TestSessions,
  uniqueSchema,
} from '@district/nest-common/testing';
// The bench must mount classroom's real module with the network override, which only an in-process module can
// provide (the launcher has no such hook, on purpose): the one service import of the benchmarks.
// eslint-disable-next-line @nx/enforce-module-boundaries
import { defineClassroomService } from '@district/classroom';

/** classroom's AUDIO_PROXY_NETWORK_OVERRIDE (services/classroom/src/audio-proxy/audio-proxy.network.ts), by its registered key. */
const AUDIO_PROXY_NETWORK_OVERRIDE = Symbol.for('district.classroom.audio-proxy.network-override');

/** The shape of classroom's AudioProxyNetwork. */
interface AudioProxyNetwork {
  resolve(hostname: string): Promise<Array<{ address: string; family: 4 | 6 }>>;
  allowList: readonly string[];
  extraAddressClasses: readonly string[];
  plainHttp: boolean;
}

@Module({})
class BenchNetworkModule {
  static with(network: AudioProxyNetwork): DynamicModule {
    return {
      module: BenchNetworkModule,
      global: true,
      providers: [{ provide: AUDIO_PROXY_NETWORK_OVERRIDE, useValue: network }],
      exports: [AUDIO_PROXY_NETWORK_OVERRIDE],
    };
  }
}

@Module({})
class BenchRoot {}

async function main(): Promise<void> {
  const upstream = new URL(process.argv[2] ?? '');
  const network: AudioProxyNetwork = {
    resolve: async (name) => (name === 'drive.google.com' ? [{ address: upstream.hostname, family: 4 }] : []),
    allowList: ['drive.google.com'],
    extraAddressClasses: ['loopback'],
    plainHttp: true,
  };
  const schema = uniqueSchema('classroom_bench');
  const runtime = createTestRuntime({
    env: {
      CLASSROOM_AUDIO_PROXY_RATE_LIMIT: '1000000',
      CLASSROOM_AUDIO_PROXY_RATE_WINDOW_MS: '1000',
      // The memory of recent files (ADR 0025) as shipped, unless the bench turns it off (--no-cache).
      ...(process.env.CLASSROOM_AUDIO_PROXY_CACHE_BYTES !== undefined
        ? { CLASSROOM_AUDIO_PROXY_CACHE_BYTES: process.env.CLASSROOM_AUDIO_PROXY_CACHE_BYTES }
        : {}),
    },
  });
  const definition = defineClassroomService({ schema });
  const service = await startService(
    {
      ...definition,
      rootModule: (rt) => ({
        module: BenchRoot,
        imports: [definition.rootModule(rt), BenchNetworkModule.with(network)],
      }),
    },
    runtime,
    { port: 0, host: '127.0.0.1' },
  );
  const sessions = await TestSessions.open(runtime);
  const client = new HttpClient(runtime.publicUrl);
  await sessions.signIn(client, 'student');
  const cookie = client.jar.header(new URL('/api/audio-proxy', runtime.publicUrl)) ?? '';
  const link = `http://drive.google.com:${upstream.port}/file/d/bench-audio/view?usp=sharing`;
  process.stdout.write(`${JSON.stringify({ url: service.url, pid: process.pid, cookie, link })}\n`);
  reportMemory();
  process.on('SIGTERM', () => {
    void (async () => {
      await service.close();
      await runtime.dispose();
      await dropSchema(TEST_DATABASE_URL, schema);
      process.exit(0);
    })();
  });
}

/**
 * Every 200 ms, one JSON line on stdout after the handshake: the V8 heap in use, the memory of ArrayBuffers
 * (Buffers: the chunks being streamed, live or waiting for the GC), and the collections since the last line —
 * what the benchmark needs to tell buffers held by slow listeners from garbage-collector slack.
 */
function reportMemory(): void {
  let gc = { minor: 0, major: 0, external: 0, ms: 0 };
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      const detail = (entry as unknown as { detail?: { kind?: number; flags?: number } }).detail;
      if (detail?.kind === constants.NODE_PERFORMANCE_GC_MINOR) gc.minor++;
      else if (detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR) gc.major++;
      // A collection V8 ran because of external (ArrayBuffer/Buffer) memory pressure.
      if ((detail?.flags ?? 0) & constants.NODE_PERFORMANCE_GC_FLAGS_ALL_EXTERNAL_MEMORY) gc.external++;
      gc.ms += entry.duration;
    }
  }).observe({ entryTypes: ['gc'] });
  setInterval(() => {
    const m = process.memoryUsage();
    process.stdout.write(
      `${JSON.stringify({ memory: { heapUsed: m.heapUsed, arrayBuffers: m.arrayBuffers }, gc })}\n`,
    );
    gc = { minor: 0, major: 0, external: 0, ms: 0 };
  }, 200).unref();
}

main().catch((error: unknown) => {
  process.stderr.write(`${String((error as Error)?.stack ?? error)}\n`);
  process.exit(1);
});
