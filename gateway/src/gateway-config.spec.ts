import { DEFAULT_BODY_LIMIT, DEFAULT_UPLOAD_LIMIT } from './gateway';
import { GatewayConfigError, gatewaySettingsFromEnv } from './gateway-config';
import { DEFAULT_MAX_UNFINISHED_PER_ADDRESS } from './unfinished-requests';

/** The launcher passes its registry's names; the gateway itself knows none. */
const SERVICES = ['identity', 'content', 'chat'];

describe('gatewaySettingsFromEnv', () => {
  it('has safe defaults: no proxy trusted, no extra origin, the standard limits', () => {
    expect(gatewaySettingsFromEnv({}, SERVICES)).toEqual({
      allowedOrigins: [],
      allowedHosts: [],
      trustProxy: false,
      bodyLimits: { default: DEFAULT_BODY_LIMIT, upload: DEFAULT_UPLOAD_LIMIT },
      metricsToken: undefined,
      maxUnfinishedPerAddress: DEFAULT_MAX_UNFINISHED_PER_ADDRESS,
      upstreams: {},
    });
    expect(DEFAULT_MAX_UNFINISHED_PER_ADDRESS).toBe(32);
    // Compose passes an unset variable as an empty string.
    expect(
      gatewaySettingsFromEnv({ GATEWAY_MAX_UNFINISHED_PER_ADDRESS: '' }, SERVICES).maxUnfinishedPerAddress,
    ).toBe(32);
  });

  it('reads every setting', () => {
    expect(
      gatewaySettingsFromEnv(
        {
          GATEWAY_ALLOWED_ORIGINS: 'https://www.learn.example.org, https://learn.example.net',
          GATEWAY_ALLOWED_HOSTS: 'Gateway.internal:3000, 10.0.0.5:3000,[::1]:3000',
          GATEWAY_TRUST_PROXY: 'true',
          GATEWAY_BODY_LIMIT: '2097152',
          GATEWAY_UPLOAD_LIMIT: '8388608',
          GATEWAY_METRICS_TOKEN: 'abcdefghijklmnopqrstuvwxyz',
          GATEWAY_MAX_UNFINISHED_PER_ADDRESS: '200',
          UPSTREAM_CHAT: 'http://chat-0:4105,http://chat-1:4105',
          UPSTREAM_IDENTITY: 'http://identity:4101',
        },
        SERVICES,
      ),
    ).toEqual({
      allowedOrigins: ['https://www.learn.example.org', 'https://learn.example.net'],
      allowedHosts: ['gateway.internal:3000', '10.0.0.5:3000', '[::1]:3000'],
      trustProxy: true,
      bodyLimits: { default: 2097152, upload: 8388608 },
      metricsToken: 'abcdefghijklmnopqrstuvwxyz',
      maxUnfinishedPerAddress: 200,
      upstreams: { chat: ['http://chat-0:4105', 'http://chat-1:4105'], identity: ['http://identity:4101'] },
    });
  });

  it('knows an upstream variable for every service it is given, and only for those', () => {
    for (const service of SERVICES) {
      const env = { [`UPSTREAM_${service.toUpperCase()}`]: 'http://127.0.0.1:1' };
      expect(gatewaySettingsFromEnv(env, SERVICES).upstreams).toEqual({ [service]: ['http://127.0.0.1:1'] });
    }
    const env = { UPSTREAM_LIBRARY: 'http://library:3000', UPSTREAM_IDENTITY: 'http://identity:4101' };
    expect(gatewaySettingsFromEnv(env, ['identity']).upstreams).toEqual({
      identity: ['http://identity:4101'],
    });
    expect(gatewaySettingsFromEnv(env, ['identity', 'library']).upstreams).toEqual({
      identity: ['http://identity:4101'],
      library: ['http://library:3000'],
    });
    // Not a service: not read, so not checked either.
    expect(gatewaySettingsFromEnv({ UPSTREAM_CHAT: 'ftp://x' }, ['identity']).upstreams).toEqual({});
  });

  it('lists every mistake at once and never prints the metrics token', () => {
    let error: unknown;
    try {
      gatewaySettingsFromEnv(
        {
          GATEWAY_ALLOWED_ORIGINS: 'learn.example.org',
          GATEWAY_ALLOWED_HOSTS: 'learn.example.org,https://learn.example.org',
          GATEWAY_TRUST_PROXY: 'maybe',
          GATEWAY_BODY_LIMIT: '-5',
          UPSTREAM_IDENTITY: 'ftp://x',
          GATEWAY_METRICS_TOKEN: 'short-secret',
          GATEWAY_MAX_UNFINISHED_PER_ADDRESS: '0',
        },
        SERVICES,
      );
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(GatewayConfigError);
    const problems = (error as GatewayConfigError).problems;
    expect(problems).toHaveLength(7);
    expect(problems).toContain('GATEWAY_MAX_UNFINISHED_PER_ADDRESS: must be at least 1 (got "0")');
    expect(problems).toContain(
      'GATEWAY_ALLOWED_HOSTS: must be a comma-separated list of host[:port] names (got "learn.example.org,https://learn.example.org")',
    );
    expect(problems).toContain('GATEWAY_BODY_LIMIT: must be more than 0 (got "-5")');
    expect(problems).toContain(
      'UPSTREAM_IDENTITY: must be a comma-separated list of http(s) URLs (got "ftp://x")',
    );
    expect((error as Error).message).not.toContain('short-secret');
  });
});
