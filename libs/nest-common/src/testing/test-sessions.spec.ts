import { SessionStateStore } from '../auth/session-state';
import { SESSION_COOKIE, TokenService } from '../auth/token.service';
import { HttpClient } from './http-client';
import { createTestRuntime } from './index';
import { TestSessions } from './test-sessions';

describe('TestSessions', () => {
  const runtime = createTestRuntime();
  afterAll(() => runtime.dispose());

  it('signs tokens any service verifies, and writes the state its guard reads (version and marker)', async () => {
    const sessions = await TestSessions.open(runtime);
    const client = new HttpClient(runtime.publicUrl);
    const person = await sessions.signIn(client, 'teacher', { name: 'Tess' });
    const token = client.jar.get(runtime.publicUrl, SESSION_COOKIE);
    const claims = await new TokenService({ publicKeyPem: runtime.keys.publicKeyPem }).verify(token);
    expect(claims).toMatchObject({
      sub: person.id,
      name: 'Tess',
      role: 'teacher',
      approved: true,
      isAdmin: false,
      tv: 1,
    });
    const state = new SessionStateStore(runtime.store);
    expect(await state.isRestored()).toBe(true);
    expect(await state.check(person.id, 1, claims?.sid ?? '')).toBe('valid');
  });

  it('gives each persona the claims identity would, unless told otherwise', async () => {
    const sessions = await TestSessions.open(runtime);
    const verifier = new TokenService(runtime.keys);
    const claimsOf = async (...args: Parameters<TestSessions['sign']>) =>
      verifier.verify((await sessions.sign(...args)).token);
    expect(await claimsOf('pending')).toMatchObject({ role: 'student', approved: false, isAdmin: false });
    expect(await claimsOf('student')).toMatchObject({ role: 'student', approved: true, isAdmin: false });
    expect(await claimsOf('admin')).toMatchObject({ role: 'teacher', approved: true, isAdmin: true });
    expect(await claimsOf('admin', { approved: false })).toMatchObject({ approved: false, isAdmin: true });
    expect((await sessions.sign('anonymous')).token).toBeUndefined();
  });
});
