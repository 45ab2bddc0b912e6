import { spawn, type ChildProcess } from 'node:child_process';
import { CpuMeter } from './cpu-meter';
import { descendantTicks, machineTicks, parseMachineStat, parseProcStat, processTicks } from './process-cpu';

describe('process CPU from /proc', () => {
  it('reads the fields after the command name, even one with spaces and parentheses', () => {
    const line =
      '4242 (node (worker) 1) S 4200 4242 4200 0 -1 4194560 100 0 0 0 150 25 7 3 20 0 11 0 3000 1000000 5000 18446744073709551615';
    expect(parseProcStat(line)).toEqual({ ppid: 4200, own: 175, reapedChildren: 10 });
  });

  it('counts machine time without idle and iowait', () => {
    expect(parseMachineStat('cpu  100 5 50 800 20 3 7 15 0 0')).toEqual({ busy: 180, total: 1000 });
    expect(() => parseMachineStat('cpu0 1 2 3')).toThrow('not the cpu line');
  });

  it('reads this process and the machine', () => {
    const self = processTicks('self');
    expect(self?.ppid).toBe(process.ppid);
    expect(self?.own).toBeGreaterThanOrEqual(0);
    expect(processTicks(2 ** 30)).toBeUndefined();
    const machine = machineTicks();
    expect(machine.total).toBeGreaterThan(machine.busy);
  });

  describe('with a child that burns CPU', () => {
    let child: ChildProcess | undefined;
    afterEach(() => {
      child?.kill('SIGKILL');
    });

    it('adds up the CPU time of descendants', async () => {
      // Spins until it has used 80 ms of CPU, says so, then idles until killed.
      const script =
        'const s=process.cpuUsage();while((process.cpuUsage(s).user+process.cpuUsage(s).system)<80000){}' +
        'process.stdout.write("spun\\n");setInterval(()=>{},1000);';
      child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
      await new Promise<void>((resolve) => child?.stdout?.once('data', () => resolve()));
      // 80 ms is 8 ticks at 100 Hz; allow for the kernel's sampling.
      expect(descendantTicks(process.pid)).toBeGreaterThanOrEqual(5);
      expect(descendantTicks(child.pid as number)).toBe(0);
    });
  });

  it('splits CPU time between the groups, the load generator and everyone else', () => {
    let server = 1000;
    const meter = new CpuMeter([{ name: 'server', ticks: () => server }], 100);
    const start = meter.sample();
    server += 50;
    const usage = meter.since(start);
    expect(usage.groups.server).toBe(0.5);
    expect(usage.others).toBeGreaterThanOrEqual(0);
    expect(usage.machineBusy).toBeGreaterThanOrEqual(0);
    expect(usage.wallSeconds).toBeGreaterThanOrEqual(0);
  });
});
