import {
  applyStandaloneFlags,
  ensureNodeFlags,
  missingFlags,
  nodeFlagsFor,
  readWorkspaceManifest,
  RESTARTED_ENV,
  type RestartHost,
} from './node-flags';
import { serviceNames } from './targets';

const manifests: Record<string, unknown> = {
  classroom: { district: { nodeFlags: ['--no-memory-reducer'] } },
  chat: { district: { nodeFlags: ['--max-semi-space-size=32', '--no-memory-reducer'] } },
  identity: { name: '@district/identity' },
};
const read = (name: string) => manifests[name] as never;

describe('node flags declared by a service', () => {
  it('are read from the workspace manifest, and classroom declares its two', () => {
    expect(nodeFlagsFor(['classroom'])).toEqual(['--no-memory-reducer', '--heap-growing-percent=50']);
    expect(nodeFlagsFor(['identity'])).toEqual([]);
  });

  it('every registered service has a readable manifest whose declaration, if any, is valid', () => {
    for (const name of serviceNames()) {
      expect(readWorkspaceManifest(name)).toMatchObject({ name: `@district/${name}` });
      expect(() => nodeFlagsFor([name])).not.toThrow();
    }
  });

  it('unite the targets of a process in order, each once; all, gateway and odd names declare none', () => {
    expect(nodeFlagsFor(['classroom', 'chat', 'identity'], read)).toEqual([
      '--no-memory-reducer',
      '--max-semi-space-size=32',
    ]);
    expect(nodeFlagsFor(['all', 'gateway', '../classroom', 'Classroom'], read)).toEqual([]);
  });

  it('refuse anything that is not a plain --flag token', () => {
    for (const bad of [
      ['--require=./x.js --eval'],
      ['-e'],
      ['--eval', 'x'],
      '--no-memory-reducer',
      [1],
      ['--inspect=0.0.0.0:9229'],
    ]) {
      expect(() => nodeFlagsFor(['classroom'], () => ({ district: { nodeFlags: bad } }))).toThrow(
        'services/classroom/package.json: district.nodeFlags must be a list of --flag tokens',
      );
    }
  });

  it('count a flag as present in either spelling V8 accepts', () => {
    expect(
      missingFlags(['--no-memory-reducer', '--max-semi-space-size=32'], ['--no_memory_reducer']),
    ).toEqual(['--max-semi-space-size=32']);
  });
});

describe('ensureNodeFlags', () => {
  const host = (over: Partial<RestartHost> = {}) => {
    const calls: { execve: unknown[][]; warn: string[] } = { execve: [], warn: [] };
    const h: RestartHost = {
      execPath: '/usr/bin/node',
      execArgv: ['-r', '@swc-node/register'],
      argv: ['/usr/bin/node', '/app/launcher/dist/main.js', '--target=classroom'],
      env: { PATH: '/bin' },
      execve: ((...args: unknown[]) => {
        calls.execve.push(args);
        return undefined as never;
      }) as RestartHost['execve'],
      warn: (m) => calls.warn.push(m),
      ...over,
    };
    return { h, calls };
  };

  it('restarts the process in place with the missing flags, keeping its own node arguments and argv', () => {
    const { h, calls } = host();
    ensureNodeFlags(['classroom'], h, read);
    expect(calls.execve).toEqual([
      [
        '/usr/bin/node',
        [
          '/usr/bin/node',
          '-r',
          '@swc-node/register',
          '--no-memory-reducer',
          '/app/launcher/dist/main.js',
          '--target=classroom',
        ],
        { PATH: '/bin', [RESTARTED_ENV]: '1' },
      ],
    ]);
    expect(calls.warn).toEqual([]);
  });

  it('does nothing when the flags are there, or the target declares none', () => {
    const { h, calls } = host({ execArgv: ['--no-memory-reducer'] });
    ensureNodeFlags(['classroom'], h, read);
    ensureNodeFlags(['identity', 'gateway'], host().h, read);
    ensureNodeFlags(['all'], host().h, read);
    expect(calls.execve).toEqual([]);
    expect(calls.warn).toEqual([]);
  });

  it('warns and runs on without them where node cannot exec in place, or after a restart that did not take', () => {
    for (const over of [{ execve: undefined }, { env: { [RESTARTED_ENV]: '1' } }]) {
      const { h, calls } = host(over);
      ensureNodeFlags(['classroom'], h, read);
      expect(calls.execve).toEqual([]);
      expect(calls.warn).toHaveLength(1);
      expect(calls.warn[0]).toMatch(
        /^running without --no-memory-reducer \(declared by classroom\): start node with it/,
      );
    }
  });
});

describe('applyStandaloneFlags', () => {
  it('sets the standalone heap growth on the all target only, unless the process was started with its own', () => {
    const set = jest.fn();
    expect(applyStandaloneFlags(['all'], [], set)).toEqual(['--heap-growing-percent=50']);
    expect(set).toHaveBeenCalledWith('--heap-growing-percent=50');
    set.mockClear();
    expect(applyStandaloneFlags(['identity'], [], set)).toEqual([]);
    expect(applyStandaloneFlags(['gateway'], [], set)).toEqual([]);
    expect(applyStandaloneFlags(['all'], ['--heap_growing_percent=80'], set)).toEqual([]);
    expect(set).not.toHaveBeenCalled();
  });
});
