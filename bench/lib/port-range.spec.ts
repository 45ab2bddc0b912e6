import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describePortRange, parsePortRange, widenPortRange } from './port-range';

describe('the load generator’s local port range', () => {
  const file = () => {
    const f = path.join(mkdtempSync(path.join(os.tmpdir(), 'port-range-')), 'ip_local_port_range');
    writeFileSync(f, '32768\t60999\n');
    return f;
  };

  it('reads the kernel’s form and the option’s, and refuses anything else', () => {
    expect(parsePortRange('32768\t60999\n')).toEqual({ low: 32768, high: 60999 });
    expect(parsePortRange('10000-65535')).toEqual({ low: 10000, high: 65535 });
    for (const bad of ['', 'wide', '80-65535', '10000-70000', '60000-50000', '1-2-3'])
      expect(parsePortRange(bad)).toBeUndefined();
    expect(describePortRange({ low: 10000, high: 65535 })).toBe('10000-65535 (55536 ports)');
  });

  it('sets the range for the run and puts the machine’s back, once', () => {
    const f = file();
    const setting = widenPortRange('10000-65535', f);
    expect(readFileSync(f, 'utf8')).toBe('10000 65535');
    expect(setting).toMatchObject({ before: { low: 32768, high: 60999 }, used: { low: 10000, high: 65535 } });
    expect(setting.note).toBeUndefined();
    setting.restore();
    expect(readFileSync(f, 'utf8')).toBe('32768 60999');
    writeFileSync(f, '20000 30000');
    setting.restore();
    expect(readFileSync(f, 'utf8')).toBe('20000 30000');
  });

  it('keeps the machine’s range when asked or when it cannot be read, and says so', () => {
    const f = file();
    expect(widenPortRange('keep', f)).toMatchObject({
      used: { low: 32768, high: 60999 },
      note: expect.stringContaining('keep'),
    });
    expect(readFileSync(f, 'utf8')).toBe('32768\t60999\n');
    expect(widenPortRange('10000-65535', path.join(f, 'missing')).note).toMatch(/cannot be read/);
    expect(() => widenPortRange('everything', f)).toThrow(/--port-range everything/);
  });
});
