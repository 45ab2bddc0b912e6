import { ConfigError } from '@district/nest-common';
import { DEFAULT_DEMO_PASSWORD, loadIdentityConfig } from './identity.config';

describe('loadIdentityConfig', () => {
  it('defaults to no OpenID provider, no bootstrap admin and the default demo password', () => {
    expect(loadIdentityConfig({})).toEqual({
      oidc: null,
      admin: null,
      demoPassword: DEFAULT_DEMO_PASSWORD,
      login: { maxFailuresPerAccount: 50, maxFailuresPerAddress: 100 },
      register: { maxPerAddress: 100 },
    });
  });

  it('treats empty variables as unset', () => {
    expect(
      loadIdentityConfig({ OIDC_ISSUER: '', OIDC_CLIENT_ID: '', ADMIN_EMAIL: '', ADMIN_PASSWORD: '' }),
    ).toMatchObject({
      oidc: null,
      admin: null,
    });
  });

  it('reads the OpenID provider, the administrator and the limits', () => {
    const config = loadIdentityConfig({
      OIDC_ISSUER: 'https://accounts.google.com',
      OIDC_CLIENT_ID: 'client',
      OIDC_CLIENT_SECRET: 'secret',
      ADMIN_EMAIL: 'Head@School.test',
      ADMIN_PASSWORD: 'long-enough',
      LOGIN_MAX_FAILURES_PER_ADDRESS: '500',
      REGISTER_MAX_PER_ADDRESS: '300',
    });
    expect(config.oidc).toEqual({
      issuer: new URL('https://accounts.google.com'),
      clientId: 'client',
      clientSecret: 'secret',
      allowInsecureIssuer: false,
    });
    expect(config.admin).toEqual({
      email: 'head@school.test',
      password: 'long-enough',
      name: 'Administrator',
    });
    expect(config.login.maxFailuresPerAddress).toBe(500);
    expect(config.register.maxPerAddress).toBe(300);
  });

  it('refuses a plain-HTTP issuer unless explicitly allowed (tests)', () => {
    expect(() => loadIdentityConfig({ OIDC_ISSUER: 'http://127.0.0.1:4000', OIDC_CLIENT_ID: 'c' })).toThrow(
      /OIDC_ISSUER: must use https/,
    );
    expect(
      loadIdentityConfig({
        OIDC_ISSUER: 'http://127.0.0.1:4000',
        OIDC_CLIENT_ID: 'c',
        OIDC_ALLOW_INSECURE_ISSUER: 'true',
      }).oidc?.allowInsecureIssuer,
    ).toBe(true);
  });

  it('lists every problem at once and never shows a secret', () => {
    let error: unknown;
    try {
      loadIdentityConfig({
        OIDC_CLIENT_SECRET: 'very-secret',
        ADMIN_PASSWORD: 'short',
        LOGIN_MAX_FAILURES_PER_ADDRESS: 'many',
        REGISTER_MAX_PER_ADDRESS: '0',
      });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).problems).toEqual(
      expect.arrayContaining([
        'OIDC_ISSUER: is required when OIDC_CLIENT_ID or OIDC_CLIENT_SECRET is set',
        'ADMIN_PASSWORD: must be at least 6 characters (got "***")',
        'ADMIN_EMAIL: ADMIN_EMAIL and ADMIN_PASSWORD must be set together',
        'LOGIN_MAX_FAILURES_PER_ADDRESS: must be a number (got "many")',
        'REGISTER_MAX_PER_ADDRESS: must be at least 1 (got "0")',
      ]),
    );
    expect((error as Error).message).not.toContain('very-secret');
  });
});
