import { spawn } from 'node:child_process';
import path from 'node:path';

const repoRoot = path.resolve(__dirname, '../../../..');

/**
 * A process that logs one line and then stays quiet, with every write to standard output counted (sonic-boom
 * writes through `fs.writeSync`). Its own process: the logger's writer is one per process, on fd 1.
 */
const CHILD = `
const fs = require('fs');
const writeSync = fs.writeSync;
const writes = [];
fs.writeSync = function (fd, data, ...rest) {
  if (fd === 1) writes.push({ at: Date.now(), bytes: typeof data === 'string' ? Buffer.byteLength(data) : data.length });
  return writeSync.call(this, fd, data, ...rest);
};
const { createLogger } = require('./libs/nest-common/src/logging/logger');
const logger = createLogger('quiet', 'info');
const started = Date.now();
logger.info('one line, then quiet');
if (process.env.EXIT_AT_ONCE) {
  for (let i = 0; i < 100; i++) logger.info({ i }, 'a burst line');
  logger.info('the last line, before exit');
  process.stderr.write(JSON.stringify({ writes: writes.map((w) => ({ ms: w.at - started, bytes: w.bytes })) }));
  process.exit(0);
}
setTimeout(() => {
  process.stderr.write(JSON.stringify({ writes: writes.map((w) => ({ ms: w.at - started, bytes: w.bytes })) }));
  process.exit(0);
}, 1300);
`;

function runQuietProcess(
  env: NodeJS.ProcessEnv = {},
): Promise<{ stdout: string; writes: Array<{ ms: number; bytes: number }> }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-r', '@swc-node/register', '-e', CHILD], {
      cwd: repoRoot,
      env: { ...process.env, SWC_NODE_PROJECT: path.join(repoRoot, 'tsconfig.runtime.json'), ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.once('error', reject);
    child.once('exit', (code) => {
      if (code !== 0) return reject(new Error(`child exited ${code}: ${stderr}`));
      try {
        resolve({
          stdout,
          ...(JSON.parse(stderr.slice(stderr.indexOf('{'))) as {
            writes: Array<{ ms: number; bytes: number }>;
          }),
        });
      } catch (err) {
        reject(new Error(`${String(err)}: ${stderr}`));
      }
    });
  });
}

describe('the process-wide log writer', () => {
  it('writes a lone line about 100 ms after it was logged, and nothing at all while the process stays quiet', async () => {
    const { stdout, writes } = await runQuietProcess();
    expect(JSON.parse(stdout.trim())).toMatchObject({ name: 'quiet', msg: 'one line, then quiet' });
    // One write: the line, by the timer the line armed (not at exit, which comes 1.3 s later)...
    expect(writes).toHaveLength(1);
    expect(writes[0].bytes).toBe(Buffer.byteLength(stdout));
    expect(writes[0].ms).toBeGreaterThanOrEqual(90);
    expect(writes[0].ms).toBeLessThan(1_000);
    // ...and no empty flush every 100 ms after it (sonic-boom's periodicFlush wrote ~11 in that time).
  }, 30_000);

  it('writes a burst in 4 KB batches as it comes, and what is pending when the process exits', async () => {
    const { stdout, writes } = await runQuietProcess({ EXIT_AT_ONCE: '1' });
    const lines = stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { msg: string });
    expect(lines).toHaveLength(102);
    expect(lines.at(-1)?.msg).toBe('the last line, before exit');
    // The burst went out in batches of at least 4 KB while it was logged (counted before exit)...
    expect(writes.length).toBeGreaterThanOrEqual(2);
    for (const w of writes) expect(w.bytes).toBeGreaterThanOrEqual(4096);
    // ...and the exit handler wrote the rest.
    expect(writes.reduce((n, w) => n + w.bytes, 0)).toBeLessThan(Buffer.byteLength(stdout));
  }, 30_000);
});
