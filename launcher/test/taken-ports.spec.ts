import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { PORT_TAKEN_EXIT_CODE } from '@district/nest-common';
import { runTs } from './support/processes';

/**
 * ADR 0029: a process whose port another program holds stops with its own exit code, and the cluster launcher
 * refuses a base whose ports are not all free, naming the taken one: neither starts something the gateway would
 * route to a stranger through.
 */
jest.setTimeout(60_000);

describe('a port another program holds', () => {
  let holder: Server;
  let port: number;
  let dataDir: string;

  beforeAll(async () => {
    holder = createServer();
    holder.listen(0, '127.0.0.1');
    await once(holder, 'listening');
    port = (holder.address() as { port: number }).port;
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'district-taken-'));
  });
  afterAll(async () => {
    holder.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  const exited = async (entry: string, env: NodeJS.ProcessEnv) => {
    const output: string[] = [];
    const child = runTs(entry, { DATA_DIR: dataDir, HOST: '127.0.0.1', ...env }, output);
    const [code] = (await once(child, 'exit')) as [number | null];
    return { code, output: output.join('') };
  };

  it('makes a launched process exit with PORT_TAKEN_EXIT_CODE, saying which port', async () => {
    const { code, output } = await exited('launcher/src/main.ts', {
      TARGET: 'gateway',
      PORT: String(port),
      LOG_LEVEL: 'info',
    });
    expect(code).toBe(PORT_TAKEN_EXIT_CODE);
    expect(output).toContain(`port ${port} is taken by another program`);
  });

  it('stops the cluster launcher before it starts anything, naming the port', async () => {
    const { code, output } = await exited('launcher/src/cluster.ts', {
      CLUSTER_BASE_PORT: String(port - 1),
      LOG_LEVEL: 'info',
    });
    expect(code).toBe(1);
    expect(output).toContain(`Port ${port} (of the cluster's ${port}–`);
    expect(output).toContain(
      'is taken by another program: set CLUSTER_BASE_PORT to another base, or to auto',
    );
    expect(output).not.toContain('"msg":"started"');
  });
});
