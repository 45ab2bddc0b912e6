import { benchCommand, commonOptions, positive } from './bench-options';
import { REPO_ROOT } from './child-processes';

const defaults = { usage: 'usage', probes: ['me', 'users', 'healthz'], rates: '500,100' };

describe('common benchmark options', () => {
  it('has defaults for everything', () => {
    expect(commonOptions({ tool: 'undici' }, defaults)).toEqual({
      rounds: 3,
      durationSeconds: 10,
      warmupSeconds: 5,
      connections: 50,
      rates: [500, 100],
      rateDurationSeconds: 10,
      rateConnections: 50,
      probes: ['me', 'users', 'healthz'],
      tool: 'undici',
      logLevel: 'info',
      out: `${REPO_ROOT}/bench/reports`,
      keep: false,
      pin: true,
      reportOnly: false,
    });
  });

  it('takes what is given', () => {
    const options = commonOptions(
      {
        tool: 'undici',
        rounds: '5',
        duration: '2.5',
        rate: '200',
        probes: 'users, me',
        'log-level': 'warn',
        keep: true,
        'report-only': true,
      },
      defaults,
    );
    expect(options).toMatchObject({
      rounds: 5,
      durationSeconds: 2.5,
      rates: [200],
      probes: ['users', 'me'],
      logLevel: 'warn',
      keep: true,
      reportOnly: true,
    });
  });

  it('pins processes to CPUs unless told --no-pin', () => {
    expect(commonOptions({ tool: 'undici' }, defaults).pin).toBe(true);
    expect(commonOptions({ tool: 'undici', 'no-pin': true }, defaults).pin).toBe(false);
  });

  it('refuses unknown probes, tools and numbers that are not positive', () => {
    expect(() => commonOptions({ tool: 'undici', probes: 'me,nope' }, defaults)).toThrow(
      '--probes takes a list of me, users, healthz (got "me,nope")',
    );
    expect(() => commonOptions({ tool: 'undici', probes: ',' }, defaults)).toThrow('--probes takes a list');
    expect(() => commonOptions({ tool: 'ab' }, defaults)).toThrow('--tool must be wrk or undici (got "ab")');
    expect(() => commonOptions({ tool: 'undici', rate: '500,0' }, defaults)).toThrow(
      '--rate must be a positive number (got "0")',
    );
    expect(() => positive('rounds', 'three', 3)).toThrow('--rounds must be a positive number (got "three")');
    expect(positive('rounds', undefined, 3)).toBe(3);
  });

  it('names the command that measured a run without where its report went, paths relative to the repository', () => {
    expect(
      benchCommand(
        'bench:content',
        ['--rounds', '5', '--out', '/tmp/x', '--report-only', '--notes=n.md', '--before', 'b.json'],
        ['--before', '--notes'],
      ),
    ).toBe('npm run bench:content -w bench -- --rounds 5');
    expect(benchCommand('bench:platform', ['--node', `${REPO_ROOT}/package/bin/node`])).toBe(
      'npm run bench:platform -w bench -- --node package/bin/node',
    );
    expect(benchCommand('bench:gateway', [])).toBe('npm run bench:gateway -w bench');
  });
});
