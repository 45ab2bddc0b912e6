/**
 * What a reconnect surge costs the load generator itself, by its local port range (bench/lib/port-range.ts): the
 * kill test's shape with plain TCP and no chat — N connections held to two server processes, one of them killed,
 * its half reconnected to the other at once — alternated between the machine's range and the wide one. The client
 * runs here on the load generator's CPU, the servers on the other. Needs root to set the range (it is put back).
 *
 *   npm run bench:reconnect-ports -w bench -- [--clients 19000] [--rounds 3] [--wide 10000-65535]
 */
import { fork, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import { parseArgs } from 'node:util';
import { pinBenchScript, pinProcess, planPinning } from '../lib/cpu-pinning';
import { describeMachine } from '../lib/machine-info';
import { describePortRange, PORT_RANGE_FILE, widenPortRange, WIDE_PORT_RANGE } from '../lib/port-range';

const { values: a } = parseArgs({
  options: {
    clients: { type: 'string', default: '19000' },
    rounds: { type: 'string', default: '3' },
    wide: { type: 'string', default: WIDE_PORT_RANGE },
    serve: { type: 'string' },
  },
});

if (a.serve) {
  // A server process: accepts and holds every connection until it is killed.
  const held: net.Socket[] = [];
  const server = net.createServer((socket) => {
    socket.on('error', () => undefined);
    held.push(socket);
  });
  server.listen({ port: 0, host: '127.0.0.1', backlog: 4096 }, () =>
    process.send?.((server.address() as net.AddressInfo).port),
  );
} else {
  void main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}

function startServer(cpu: string | undefined): Promise<{ child: ChildProcess; port: number }> {
  return new Promise((resolve, reject) => {
    const child = fork(__filename, ['--serve', '1'], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    if (cpu !== undefined && child.pid) pinProcess(child.pid, cpu);
    child.once('message', (port) => resolve({ child, port: Number(port) }));
    child.once('exit', (code) => reject(new Error(`server exited ${code}`)));
  });
}

const connect = (port: number) =>
  new Promise<net.Socket>((resolve, reject) => {
    const socket = net.connect({ port, host: '127.0.0.1' }, () => resolve(socket));
    socket.once('error', reject);
  });

async function connectMany(port: number, count: number, inFlight = 200): Promise<net.Socket[]> {
  const sockets: net.Socket[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (next < count) {
        next++;
        sockets.push(await connect(port));
      }
    }),
  );
  return sockets;
}

interface Round {
  range: string;
  allBackMs: number;
  cpuMs: number;
  kernelMs: number;
}

async function surge(serverCpu: string | undefined, clients: number): Promise<Omit<Round, 'range'>> {
  const [kept, doomed] = [await startServer(serverCpu), await startServer(serverCpu)];
  try {
    const held = await connectMany(kept.port, clients / 2);
    const victims = await connectMany(doomed.port, clients / 2);
    const back: Promise<net.Socket>[] = [];
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    let closed = 0;
    const allClosed = new Promise<void>((resolve) => {
      for (const socket of victims) {
        socket.on('close', () => {
          back.push(connect(kept.port));
          if (++closed === victims.length) resolve();
        });
      }
    });
    doomed.child.kill('SIGKILL');
    await allClosed;
    const again = await Promise.all(back);
    const allBackMs = performance.now() - t0;
    const cpu = process.cpuUsage(cpu0);
    for (const socket of [...held, ...again]) socket.destroy();
    return {
      allBackMs: Math.round(allBackMs),
      cpuMs: Math.round((cpu.user + cpu.system) / 1000),
      kernelMs: Math.round(cpu.system / 1000),
    };
  } finally {
    kept.child.kill('SIGKILL');
    doomed.child.kill('SIGKILL');
  }
}

async function main(): Promise<void> {
  const clients = Number(a.clients);
  const pinning = planPinning(true);
  process.stderr.write(`${pinBenchScript(pinning)}\n`);
  const machine = widenPortRange('keep').before;
  if (!machine) throw new Error(`cannot read ${PORT_RANGE_FILE}`);
  const setups = [`${machine.low}-${machine.high}`, a.wide];
  const rounds: Round[] = [];
  for (let round = 1; round <= Number(a.rounds); round++) {
    for (const range of setups) {
      const setting = widenPortRange(range);
      try {
        if (setting.note) throw new Error(`the port range ${setting.note}`);
        // Let the last round's closed connections leave TIME_WAIT's hold on nothing we need: ports differ per server.
        await new Promise((r) => setTimeout(r, 2000));
        const result = await surge(pinning.serverCpus, clients);
        rounds.push({ range: describePortRange(setting.used!), ...result });
        process.stderr.write(`round ${round}, ${range}: ${JSON.stringify(result)}\n`);
      } finally {
        setting.restore();
      }
    }
  }
  const cpu = describeMachine().cpuModel;
  process.stdout.write(
    [
      `${clients} TCP connections held, half reconnected after their server is killed (${cpu}, ${new Date().toISOString()})`,
      '',
      '| round | local port range | all back (ms) | load generator CPU (ms) | of which kernel (ms) |',
      '|---|---|---|---|---|',
      ...rounds.map(
        (r, i) =>
          `| ${Math.floor(i / setups.length) + 1} | ${r.range} | ${r.allBackMs} | ${r.cpuMs} | ${r.kernelMs} |`,
      ),
      '',
    ].join('\n'),
  );
}
