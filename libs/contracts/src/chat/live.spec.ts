import {
  chatJoinSchema,
  chatParticipantHash,
  chatRosterAdd,
  chatRosterDigest,
  chatRosterDigestOf,
  type ChatRole,
} from './live';

const people: { name: string; role: ChatRole }[] = [
  { name: 'Ana', role: 'student' },
  { name: 'Profe Tía', role: 'teacher' },
  { name: 'Zoë 👋', role: 'student' },
];

describe('roster digests', () => {
  it('do not depend on order, and tell different lists apart', () => {
    const digest = chatRosterDigestOf(people);
    expect(digest).toMatch(/^[0-9a-z]+\.[0-9a-z]+$/);
    expect(chatRosterDigestOf([...people].reverse())).toBe(digest);
    expect(chatRosterDigestOf(people.slice(1))).not.toBe(digest);
    // The same name in another role, or another spelling, is another person.
    expect(chatRosterDigestOf([{ name: 'Ana', role: 'teacher' }, ...people.slice(1)])).not.toBe(digest);
    expect(chatRosterDigestOf([{ name: 'ana', role: 'student' }, ...people.slice(1)])).not.toBe(digest);
    expect(chatRosterDigestOf([])).toBe('0.0');
  });

  it('follow one member joining or leaving by that member’s hash alone', () => {
    const sums: [number, number] = [0, 0];
    for (const p of people.slice(0, 2)) chatRosterAdd(sums, chatParticipantHash(p));
    expect(chatRosterDigest(sums)).toBe(chatRosterDigestOf(people.slice(0, 2)));
    chatRosterAdd(sums, chatParticipantHash(people[2]));
    expect(chatRosterDigest(sums)).toBe(chatRosterDigestOf(people));
    chatRosterAdd(sums, chatParticipantHash(people[0]), -1);
    expect(chatRosterDigest(sums)).toBe(chatRosterDigestOf(people.slice(1)));
    // Sums wrap around 2^32 without losing anything: a thousand members in, all out again.
    const many = Array.from({ length: 1000 }, (_, i) => ({ name: `Student ${i}`, role: 'student' as const }));
    for (const p of many) chatRosterAdd(sums, chatParticipantHash(p));
    expect(chatRosterDigest(sums)).toBe(chatRosterDigestOf([...people.slice(1), ...many]));
    for (const p of many) chatRosterAdd(sums, chatParticipantHash(p), -1);
    expect(chatRosterDigest(sums)).toBe(chatRosterDigestOf(people.slice(1)));
  });

  it('travel in a join, at most 32 characters', () => {
    const join = { type: 'join', name: 'Ana', chatroom: 'r', roster: chatRosterDigestOf(people) };
    expect(chatJoinSchema.safeParse(join).success).toBe(true);
    expect(chatJoinSchema.safeParse({ ...join, roster: 'x'.repeat(33) }).success).toBe(false);
  });
});
