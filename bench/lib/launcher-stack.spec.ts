import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { embeddedDatabaseUrl, serviceUrlsOf } from './launcher-stack';

describe('launcher stack helpers', () => {
  it("picks each wanted service's first replica that is up from the gateway's metrics", () => {
    const metrics = [
      '# HELP gateway_upstream_up 1 when the gateway sends traffic to this replica, 0 when it is considered down',
      '# TYPE gateway_upstream_up gauge',
      'gateway_upstream_up{service="identity",replica="http://127.0.0.1:4101"} 1',
      'gateway_upstream_up{service="content",replica="http://127.0.0.1:4102"} 0',
      'gateway_upstream_up{service="content",replica="http://127.0.0.1:4112"} 1',
    ].join('\n');
    expect(serviceUrlsOf(metrics, ['content', 'identity'])).toEqual({
      content: 'http://127.0.0.1:4112',
      identity: 'http://127.0.0.1:4101',
    });
    // Not ready while a wanted service has no replica up, or is not there at all.
    expect(
      serviceUrlsOf('gateway_upstream_up{service="content",replica="x"} 0', ['content']),
    ).toBeUndefined();
    expect(serviceUrlsOf('', ['content'])).toBeUndefined();
  });

  it("reads the embedded PostgreSQL's port from its postmaster.pid", async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'bench-stack-spec-'));
    try {
      await mkdir(path.join(dataDir, 'postgres'));
      const pid = [
        '4242',
        `${dataDir}/postgres`,
        '1732400000',
        '41234',
        '',
        '127.0.0.1',
        '0',
        'ready',
        '',
      ].join('\n');
      await writeFile(path.join(dataDir, 'postgres', 'postmaster.pid'), pid);
      expect(await embeddedDatabaseUrl(dataDir)).toBe(
        'postgres://postgres:postgres@127.0.0.1:41234/district',
      );
      await writeFile(path.join(dataDir, 'postgres', 'postmaster.pid'), '4242\n');
      await expect(embeddedDatabaseUrl(dataDir)).rejects.toThrow('no port');
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
