import { displayName, usernameBase, usernameCandidate } from './username';

describe('usernameBase', () => {
  it.each([
    ['Robin.Reader', 'robin.reader'],
    ['José Álvarez', 'jose.alvarez'],
    ['  --Sam__Lee--  ', 'sam.lee'],
    ["o'brien+news", 'obriennews'],
    ['李雷', 'user'],
    ['', 'user'],
    [undefined, 'user'],
    ['a'.repeat(50), 'a'.repeat(30)],
    [`${'b'.repeat(29)}.c`, 'b'.repeat(29)],
  ])('%j -> %j', (source, expected) => {
    expect(usernameBase(source)).toBe(expected);
  });

  it('always satisfies the registration rule for usernames', () => {
    for (const source of ['Ünïcødé Nåme', '...', 'a b c', 'x'.repeat(100), '👩‍🏫 teacher']) {
      expect(usernameBase(source)).toMatch(/^[a-z0-9][a-z0-9._-]{0,29}$/);
    }
  });
});

describe('usernameCandidate', () => {
  it('tries the base, then numbered, then random four-digit suffixes', () => {
    expect(usernameCandidate('sam', 0)).toBe('sam');
    expect(usernameCandidate('sam', 1)).toBe('sam2');
    expect(usernameCandidate('sam', 8)).toBe('sam9');
    expect(usernameCandidate('sam', 9, () => 0)).toBe('sam1000');
    expect(usernameCandidate('sam', 15, () => 0.99999)).toBe('sam9999');
  });

  it('stays within the 40-character username limit', () => {
    expect(usernameCandidate('a'.repeat(30), 12).length).toBeLessThanOrEqual(40);
  });
});

describe('displayName', () => {
  it('prefers the full name, then given and family names, then the email, then a default', () => {
    expect(displayName({ name: ' Robin Reader ', given_name: 'R' })).toBe('Robin Reader');
    expect(displayName({ given_name: 'Robin', family_name: 'Reader' })).toBe('Robin Reader');
    expect(displayName({ given_name: 'Robin' })).toBe('Robin');
    expect(displayName({ email: 'robin@school.test' })).toBe('robin');
    expect(displayName({ name: 42 })).toBe('New user');
  });

  it('cuts very long names to the 120-character limit', () => {
    expect(displayName({ name: 'n'.repeat(500) })).toHaveLength(120);
  });
});
