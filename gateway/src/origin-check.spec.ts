import type { IncomingMessage } from 'node:http';
import { HostPolicy, OriginPolicy } from './origin-check';

const PUBLIC = 'https://learn.example-district.org';

const req = (headers: Record<string, string>) => ({ headers }) as unknown as IncomingMessage;

describe('OriginPolicy', () => {
  const policy = new OriginPolicy(PUBLIC, ['https://www.example-district.org']);

  it('accepts the public origin and the configured extra origins, by Origin or Referer', () => {
    expect(policy.accepts(req({ origin: PUBLIC }))).toBe(true);
    expect(policy.accepts(req({ origin: 'https://www.example-district.org' }))).toBe(true);
    expect(policy.accepts(req({ referer: `${PUBLIC}/admin/posts?page=2` }))).toBe(true);
  });

  it('accepts a request with neither Origin nor Referer (not a browser)', () => {
    expect(policy.accepts(req({}))).toBe(true);
    expect(policy.accepts(req({ origin: '', referer: '' }))).toBe(true);
  });

  it('never trusts the request’s own Host: a rebinding page sends a matching Origin and Host', () => {
    expect(policy.accepts(req({ host: 'evil.example:3000', origin: 'http://evil.example:3000' }))).toBe(
      false,
    );
    expect(policy.accepts(req({ host: '127.0.0.1:3000', origin: 'http://127.0.0.1:3000' }))).toBe(false);
    expect(policy.accepts(req({ host: 'evil.example', referer: 'http://evil.example/page' }))).toBe(false);
  });

  it('refuses the opaque "null" origin, garbage and non-http(s) origins', () => {
    for (const origin of ['null', 'not a url', 'file:///etc/passwd', 'chrome-extension://abc']) {
      expect(policy.accepts(req({ host: 'learn.example-district.org', origin }))).toBe(false);
    }
  });

  it('compares whole origins: scheme, host and port', () => {
    for (const origin of [
      'http://learn.example-district.org',
      'https://learn.example-district.org:8443',
      'https://learn.example-district.org.evil.example',
    ]) {
      expect(policy.accepts(req({ origin }))).toBe(false);
    }
  });
});

describe('HostPolicy', () => {
  it('accepts the host of the public origin and of each allowed origin, with or without the default port', () => {
    const policy = new HostPolicy(PUBLIC, ['http://www.example-district.org:8080'], []);
    expect(policy.accepts('learn.example-district.org')).toBe(true);
    expect(policy.accepts('LEARN.example-district.org')).toBe(true);
    expect(policy.accepts('learn.example-district.org:443')).toBe(true);
    expect(policy.accepts('www.example-district.org:8080')).toBe(true);
    expect(policy.accepts('www.example-district.org')).toBe(false);
    expect(policy.accepts('learn.example-district.org:3000')).toBe(false);
  });

  it('refuses any other name, including loopback names when the public origin is not loopback', () => {
    const policy = new HostPolicy(PUBLIC, [], []);
    for (const host of [
      'evil.example',
      'evil.example:443',
      'learn.example-district.org.evil.example',
      '127.0.0.1',
      'localhost',
      '10.0.3.7:3000',
      '',
      undefined,
    ]) {
      expect(policy.accepts(host)).toBe(false);
    }
  });

  it('accepts the extra host names, exactly as configured', () => {
    const policy = new HostPolicy(PUBLIC, [], ['gateway.internal:3000', '127.0.0.1:4000']);
    expect(policy.accepts('gateway.internal:3000')).toBe(true);
    expect(policy.accepts('127.0.0.1:4000')).toBe(true);
    expect(policy.accepts('gateway.internal')).toBe(false);
    expect(policy.accepts('127.0.0.1:4001')).toBe(false);
  });

  it('accepts the loopback aliases of a loopback public origin, on its port only', () => {
    const policy = new HostPolicy('http://localhost:3000', [], []);
    for (const host of ['localhost:3000', '127.0.0.1:3000', '[::1]:3000']) {
      expect(policy.accepts(host)).toBe(true);
    }
    for (const host of ['localhost:3001', '127.0.0.1', 'evil.example:3000', '0.0.0.0:3000']) {
      expect(policy.accepts(host)).toBe(false);
    }
    const byAddress = new HostPolicy('http://127.0.0.1:4500', [], []);
    expect(byAddress.accepts('localhost:4500')).toBe(true);
  });

  it('does not extend loopback aliases from an allowed origin', () => {
    const policy = new HostPolicy(PUBLIC, ['http://localhost:5173'], []);
    expect(policy.accepts('localhost:5173')).toBe(true);
    expect(policy.accepts('127.0.0.1:5173')).toBe(false);
  });

  it('refuses a malformed extra host name', () => {
    for (const bad of ['https://x.example', 'x.example/path', 'user@x.example', 'x.example:port', '']) {
      expect(() => new HostPolicy(PUBLIC, [], [bad])).toThrow(/host/i);
    }
  });
});
