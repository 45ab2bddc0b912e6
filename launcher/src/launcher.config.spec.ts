import { ConfigError } from '@district/nest-common';
import { assessmentService } from '@district/assessment';
import { warmUpRoundsFor } from './launch';
import { loadLauncherConfig } from './launcher.config';

describe('launcher configuration', () => {
  it('defaults to the standalone demo site on port 3000', () => {
    const config = loadLauncherConfig({});
    expect(config).toMatchObject({
      TARGET: ['all'],
      PORT: 3000,
      DATA_DIR: '.data',
      demo: true,
      publicUrl: 'http://localhost:3000',
    });
  });

  it('turns demo off when the bus is external (cluster) unless asked', () => {
    expect(loadLauncherConfig({ NATS_URL: 'nats://127.0.0.1:4222' }).demo).toBe(false);
    expect(loadLauncherConfig({ TARGET: 'identity' }).demo).toBe(false);
    expect(loadLauncherConfig({ NATS_URL: 'nats://127.0.0.1:4222', DEMO: 'true' }).demo).toBe(true);
  });

  it('lists every mistake at once, without printing secrets', () => {
    let error: unknown;
    try {
      loadLauncherConfig({
        PORT: 'eighty',
        DATABASE_URL: 'mysql://x',
        DEMO: 'maybe',
        DEMO_PASSWORD: 'abc',
        LOG_LEVEL: 'loud',
      });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as ConfigError).message;
    expect(message).toContain('PORT: must be a port number');
    expect(message).toContain('DATABASE_URL: must be a URL starting with postgres:// or postgresql://');
    expect(message).toContain('DEMO_PASSWORD: must be at least 6 characters (got "***")');
    expect(message).toContain('LOG_LEVEL: must be one of');
    expect(message).toContain('DEMO: must be true or false');
    expect((error as ConfigError).problems.length).toBeGreaterThanOrEqual(5);
  });

  it('refuses demo mode beyond loopback unless explicitly forced', () => {
    expect(() => loadLauncherConfig({ HOST: '0.0.0.0' })).toThrow(/DEMO_ALLOW_REMOTE=true/);
    expect(() =>
      loadLauncherConfig({ HOST: '192.168.1.20', DEMO: 'true', NATS_URL: 'nats://127.0.0.1:4222' }),
    ).toThrow(ConfigError);
    expect(loadLauncherConfig({ HOST: '0.0.0.0', DEMO_ALLOW_REMOTE: 'true' }).demo).toBe(true);
    expect(loadLauncherConfig({ HOST: '0.0.0.0', DEMO: 'false' }).demo).toBe(false);
    for (const host of ['127.0.0.1', '::1', '[::1]', 'localhost', '127.0.1.1'])
      expect(loadLauncherConfig({ HOST: host }).demo).toBe(true);
  });

  it('drains 4 s on SIGTERM by default, takes 0 to turn it off, and refuses nonsense', () => {
    expect(loadLauncherConfig({}).SHUTDOWN_DRAIN_MS).toBe(4000);
    expect(loadLauncherConfig({ SHUTDOWN_DRAIN_MS: '0' }).SHUTDOWN_DRAIN_MS).toBe(0);
    for (const bad of ['soon', '-1', '1.5', '600000'])
      expect(() => loadLauncherConfig({ SHUTDOWN_DRAIN_MS: bad })).toThrow(/SHUTDOWN_DRAIN_MS/);
  });

  it('queues 4096 connections on each listening socket by default, and refuses nonsense', () => {
    expect(loadLauncherConfig({}).LISTEN_BACKLOG).toBe(4096);
    expect(loadLauncherConfig({ LISTEN_BACKLOG: '' }).LISTEN_BACKLOG).toBe(4096);
    expect(loadLauncherConfig({ LISTEN_BACKLOG: '511' }).LISTEN_BACKLOG).toBe(511);
    for (const bad of ['lots', '0', '-1', '10.5', '70000'])
      expect(() => loadLauncherConfig({ LISTEN_BACKLOG: bad })).toThrow(/LISTEN_BACKLOG/);
  });

  it('leaves the warm-up to each service unless WARM_UP_ROUNDS is set, and refuses nonsense', () => {
    expect(loadLauncherConfig({}).WARM_UP_ROUNDS).toBeUndefined();
    expect(loadLauncherConfig({ WARM_UP_ROUNDS: '' }).WARM_UP_ROUNDS).toBeUndefined();
    expect(loadLauncherConfig({ WARM_UP_ROUNDS: '0' }).WARM_UP_ROUNDS).toBe(0);
    expect(loadLauncherConfig({ WARM_UP_ROUNDS: '500' }).WARM_UP_ROUNDS).toBe(500);
    for (const bad of ['many', '-1', '2.5', '1000000'])
      expect(() => loadLauncherConfig({ WARM_UP_ROUNDS: bad })).toThrow(/WARM_UP_ROUNDS/);
    const warming = { warmUp: { rounds: 1000, run: () => Promise.resolve(0) } };
    // A replica of its own: the service's rounds; beside the gateway (--target=all): none; WARM_UP_ROUNDS decides both.
    expect(warmUpRoundsFor(loadLauncherConfig({}), warming, false)).toBe(1000);
    expect(warmUpRoundsFor(loadLauncherConfig({}), warming, true)).toBe(0);
    expect(warmUpRoundsFor(loadLauncherConfig({ WARM_UP_ROUNDS: '0' }), warming, false)).toBe(0);
    expect(warmUpRoundsFor(loadLauncherConfig({ WARM_UP_ROUNDS: '50' }), warming, true)).toBe(50);
    expect(warmUpRoundsFor(loadLauncherConfig({ WARM_UP_ROUNDS: '50' }), {}, false)).toBe(0);
    // assessment declares one.
    expect(warmUpRoundsFor(loadLauncherConfig({}), assessmentService, false)).toBe(1000);
  });
});
