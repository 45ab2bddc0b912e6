import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { clusterBasePort } from './cluster-ports';

describe('clusterBasePort', () => {
  const rangeFile = (text: string) => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'ports-')), 'range');
    writeFileSync(file, text);
    return file;
  };

  it('keeps the base and every member port below the ephemeral range', () => {
    const file = rangeFile('32768\t60999\n');
    for (let i = 0; i < 2000; i++) {
      const base = clusterBasePort(64, file);
      expect(base).toBeGreaterThanOrEqual(10_000);
      expect(base + 64).toBeLessThan(32_768);
    }
  });

  it('follows a machine whose range starts elsewhere, and falls back to 32768 without the file', () => {
    const file = rangeFile('20000 60999');
    for (let i = 0; i < 500; i++) expect(clusterBasePort(10, file) + 10).toBeLessThan(20_000);
    for (let i = 0; i < 500; i++) expect(clusterBasePort(10, '/nonexistent/range') + 10).toBeLessThan(32_768);
  });
});
