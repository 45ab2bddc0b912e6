import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { embeddedDatabaseUrl, serviceUrlsOf } from './launcher-stack';

describe('launcher stack helpers', () => {
  it("picks each wanted service's first replica that is up from the gateway's /readyz", () => {
    const body = {
      services: {
        identity: { replicas: [{ url: 'http://127.0.0.1:4101', up: true }] },
        content: {
          replicas: [
            { url: 'http://127.0.0.1:4102', up: false },
            { url: 'http://127.0.0.1:4112', up: true },
          ],
        },
      },
    };
    expect(serviceUrlsOf(body, ['content', 'identity'])).toEqual({
      content: 'http://127.0.0.1:4112',
      identity: 'http://127.0.0.1:4101',
    });
    // Not ready while a wanted service has no replica up, or is not there at all.
    expect(serviceUrlsOf({ services: { content: { replicas: [{ url: 'x', up: false }] } } }, ['content'])).toBeUndefined();
    expect(serviceUrlsOf({}, ['content'])).toBeUndefined();
  });

  it("reads the embedded PostgreSQL's port from its postmaster.pid", async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'bench-stack-spec-'));
    try {
      await mkdir(path.join(dataDir, 'postgres'));
      const pid = ['4242', `${dataDir}/postgres`, '1732400000', '41234', '', '127.0.0.1', '0', 'ready', ''].join('\n');
      await writeFile(path.join(dataDir, 'postgres', 'postmaster.pid'), pid);
      expect(await embeddedDatabaseUrl(dataDir)).toBe('postgres://postgres:postgres@127.0.0.1:41234/district');
      await writeFile(path.join(dataDir, 'postgres', 'postmaster.pid'), '4242\n');
      await expect(embeddedDatabaseUrl(dataDir)).rejects.toThrow('no port');
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
