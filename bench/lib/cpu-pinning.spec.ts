import { readFileSync } from 'node:fs';
import { startBareServer } from './bench-run';
import {
  describePinning,
  parseCpuList,
  pinProcessCommand,
  pinnedCommand,
  planPinning,
  systemPinningProbe,
} from './cpu-pinning';

describe('CPU pinning', () => {
  const twoCpus = { tasksetInstalled: true, allowedCpus: [0, 1] };

  it('puts the load generator on the first CPU and the servers on the second', () => {
    expect(planPinning(true, twoCpus)).toEqual({ pinned: true, serverCpus: '1', loadCpus: '0' });
    expect(planPinning(true, { tasksetInstalled: true, allowedCpus: [4, 5, 6, 7] })).toEqual({
      pinned: true,
      serverCpus: '5',
      loadCpus: '4',
    });
  });

  it('pins nothing with --no-pin, without taskset, or on one CPU, and says why', () => {
    expect(planPinning(false, twoCpus)).toEqual({ pinned: false, reason: 'turned off with --no-pin' });
    expect(planPinning(true, { tasksetInstalled: false, allowedCpus: [0, 1] })).toEqual({
      pinned: false,
      reason: 'taskset is not installed (it is in util-linux)',
    });
    expect(planPinning(true, { tasksetInstalled: true, allowedCpus: [3] })).toEqual({
      pinned: false,
      reason: 'only one CPU (3) is available to the benchmark',
    });
  });

  it('runs a command under taskset -c when pinned, and as it is otherwise', () => {
    const { serverCpus, loadCpus } = planPinning(true, twoCpus);
    expect(pinnedCommand('wrk', ['-t1', '-c50', 'http://127.0.0.1:1/'], loadCpus)).toEqual({
      command: 'taskset',
      args: ['-c', '0', 'wrk', '-t1', '-c50', 'http://127.0.0.1:1/'],
    });
    expect(
      pinnedCommand('/usr/bin/node', ['-r', '@swc-node/register', 'launcher/src/main.ts'], serverCpus),
    ).toEqual({
      command: 'taskset',
      args: ['-c', '1', '/usr/bin/node', '-r', '@swc-node/register', 'launcher/src/main.ts'],
    });
    const off = planPinning(false, twoCpus);
    expect(pinnedCommand('wrk', ['-t1'], off.loadCpus)).toEqual({ command: 'wrk', args: ['-t1'] });
    expect(pinProcessCommand(4242, '0')).toEqual({ command: 'taskset', args: ['-a', '-pc', '0', '4242'] });
  });

  it("reads the kernel's CPU lists", () => {
    expect(parseCpuList('0-1')).toEqual([0, 1]);
    expect(parseCpuList(' 0-2,4,6-7\n')).toEqual([0, 1, 2, 4, 6, 7]);
    expect(() => parseCpuList('a-b')).toThrow('not a CPU list');
  });

  it('says in the report how processes were placed, and that older runs did not record it', () => {
    expect(describePinning(undefined)).toBe('not recorded (this run predates the record)');
    expect(describePinning(planPinning(false, twoCpus))).toBe('not pinned: turned off with --no-pin');
    expect(describePinning(planPinning(true, twoCpus))).toContain('servers on CPU 1 (`taskset -c 1`');
    expect(describePinning(planPinning(true, twoCpus))).toContain(
      'load generator on CPU 0 (`taskset -c 0 wrk`',
    );
  });

  const probe = systemPinningProbe();
  const canPin = probe.tasksetInstalled && probe.allowedCpus.length >= 2 ? it : it.skip;

  canPin('starts a server process on the CPU it is given', async () => {
    const cpu = String(probe.allowedCpus[1]);
    const bare = await startBareServer({ '/x': '[]' }, cpu);
    try {
      const status = readFileSync(`/proc/${bare.pid}/status`, 'utf8');
      expect(status).toMatch(new RegExp(`^Cpus_allowed_list:\\s+${cpu}$`, 'm'));
      expect(await (await fetch(`${bare.url}/x`)).text()).toBe('[]');
    } finally {
      await bare.stop();
    }
  });
});
