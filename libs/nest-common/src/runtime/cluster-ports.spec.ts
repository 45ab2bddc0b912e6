import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { clusterBasePort, firstTakenPort, freeClusterBase, portIsFree } from './cluster-ports';

describe('clusterBasePort', () => {
  const rangeFile = (text: string) => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'ports-')), 'range');
    writeFileSync(file, text);
    return file;
  };

  it('keeps the base and every member port outside the ephemeral range, below it from 10000 or above it', () => {
    const file = rangeFile('32768\t60999\n');
    const sides = new Set<string>();
    for (let i = 0; i < 2000; i++) {
      const base = clusterBasePort(64, file);
      const below = base >= 10_000 && base + 64 < 32_768;
      const above = base > 60_999 && base + 64 <= 65_535;
      expect([base, below || above]).toEqual([base, true]);
      sides.add(below ? 'below' : 'above');
    }
    expect(sides).toEqual(new Set(['below', 'above']));
  });

  it('follows a machine whose range starts elsewhere, and falls back to 32768-60999 without the file', () => {
    const file = rangeFile('20000 65535');
    for (let i = 0; i < 500; i++) expect(clusterBasePort(10, file) + 10).toBeLessThan(20_000);
    for (let i = 0; i < 500; i++) {
      const base = clusterBasePort(10, '/nonexistent/range');
      expect(base + 10 < 32_768 || base > 60_999).toBe(true);
    }
  });

  it('stays random below a range widened to 10000-65535 (a fixed base would put every cluster on one set of ports)', () => {
    const file = rangeFile('10000 65535');
    const bases = new Set<number>();
    for (let i = 0; i < 200; i++) {
      const base = clusterBasePort(64, file);
      expect(base).toBeGreaterThanOrEqual(1024);
      expect(base + 64).toBeLessThan(10_000);
      bases.add(base);
    }
    expect(bases.size).toBeGreaterThan(150);
  });
});

describe('portIsFree and firstTakenPort', () => {
  let server: Server;
  let port: number;
  beforeAll(async () => {
    server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as { port: number }).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('sees a port a server listens on as taken, and the first taken one of a run', async () => {
    expect(await portIsFree(port)).toBe(false);
    // The real check on the listening port alone: its neighbours may be anyone's (CI saw port - 1 taken).
    expect(await firstTakenPort(port - 1, 1)).toBe(port);
    // The run is walked in order and stops at the first taken port.
    const checked: number[] = [];
    const fake =
      (...taken: number[]) =>
      async (p: number) => (checked.push(p), !taken.includes(p));
    expect(await firstTakenPort(100, 5, fake(103, 105))).toBe(103);
    expect(checked).toEqual([101, 102, 103]);
    expect(await firstTakenPort(100, 5, fake())).toBeUndefined();
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const closed = (probe.address() as { port: number }).port;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    expect(await portIsFree(closed)).toBe(true);
  });
});

describe('freeClusterBase', () => {
  const taken =
    (...ports: number[]) =>
    (port: number) =>
      Promise.resolve(!ports.includes(port));

  it('uses a given base, or 4100 when unset, once their ports are free', async () => {
    expect(await freeClusterBase('20000', 8, { isFree: taken() })).toBe(20_000);
    expect(await freeClusterBase(undefined, 8, { isFree: taken() })).toBe(4100);
    expect(await freeClusterBase(' ', 8, { isFree: taken(4100) })).toBe(4100);
  });

  it('refuses a base one of whose ports is taken, naming it, rather than share it', async () => {
    await expect(freeClusterBase('20000', 8, { isFree: taken(20_005) })).rejects.toThrow(
      "Port 20005 (of the cluster's 20001–20008) is taken by another program: set CLUSTER_BASE_PORT to another base, or to auto",
    );
    await expect(freeClusterBase(undefined, 8, { isFree: taken(4101) })).rejects.toThrow('Port 4101 (of');
  });

  it('refuses what is not a port', async () => {
    for (const bad of ['4100x', '-5', '0', '65530', '41.5'])
      await expect(freeClusterBase(bad, 8, { isFree: taken() })).rejects.toThrow(
        'CLUSTER_BASE_PORT must be a port number',
      );
  });

  it('auto: picks again until every port is free, and gives up after its attempts', async () => {
    const picks = [30_000, 31_000, 32_000];
    const pick = () => picks.shift() as number;
    expect(await freeClusterBase('auto', 8, { isFree: taken(30_003, 31_008), pick })).toBe(32_000);
    await expect(
      freeClusterBase('AUTO', 8, { isFree: taken(30_001), pick: () => 30_000, attempts: 3 }),
    ).rejects.toThrow('CLUSTER_BASE_PORT=auto found no 8 free ports in a row in 3 tries');
  });
});
