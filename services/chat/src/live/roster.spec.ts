import { chatRosterDigestOf } from '@district/contracts';
import { frameOf } from './live-connection';
import { Roster } from './roster';

/** A server text frame's payload (FIN + text, unmasked; 7, 16 or 64-bit length). */
function payloadOf(frame: Buffer): string {
  expect(frame[0]).toBe(0x81);
  const short = frame[1];
  const [head, n] =
    short < 126
      ? [2, short]
      : short === 126
        ? [4, frame.readUInt16BE(2)]
        : [10, Number(frame.readBigUInt64BE(2))];
  expect(frame.length).toBe(head + n);
  return frame.subarray(head).toString();
}

const HEAD = '{"type":"joined","name":"x",';
const TAIL = ',"seq":3}';
/** The `joined` frame's fields with the participants for a member on `seat`, as the hub writes it. */
const joined = (r: Roster, seat: string, name: string, role: 'student' | 'teacher' = 'student') =>
  JSON.parse(
    payloadOf(frameOf([HEAD, '"participants":', ...r.participantsFor(seat, { name, role }), TAIL])),
  ) as {
    participants: { name: string; role: string }[];
  };

/** A roster holding these seats (students unless said). */
function rosterOf(...seats: Array<[seat: string, name: string, role?: 'student' | 'teacher']>): Roster {
  const r = new Roster();
  for (const [seat, name, role = 'student'] of seats) r.set(seat, name, role);
  return r;
}

describe('frameOf', () => {
  it('puts strings and buffers end to end in one frame, at every length encoding, multi-byte text included', () => {
    for (const n of [0, 60, 125, 126, 40_000, 65_535, 65_536, 100_000]) {
      const parts = ['¿Qué', Buffer.from(' tal, Ñandú '), 'x'.repeat(n), Buffer.alloc(0), '🎉'];
      expect(payloadOf(frameOf(parts))).toBe(`¿Qué tal, Ñandú ${'x'.repeat(n)}🎉`);
    }
  });
});

describe('Roster.participantsFor', () => {
  it('answers a join with the room’s participants and the member itself, between the frame’s other fields', () => {
    const r = new Roster();
    const first = joined(r, 'ana maría', 'Ana María');
    expect(first).toEqual({
      type: 'joined',
      name: 'x',
      participants: [{ name: 'Ana María', role: 'student' }],
      seq: 3,
    });
    r.set('ana maría', 'Ana María', 'student');
    r.set('ms. ruiz', 'Ms. Ruiz', 'teacher');
    expect(joined(r, 'íñigo', 'Íñigo').participants).toEqual([
      { name: 'Ana María', role: 'student' },
      { name: 'Ms. Ruiz', role: 'teacher' },
      { name: 'Íñigo', role: 'student' },
    ]);
  });

  it('lists a member already seated with the same name and role once (a resumed seat)', () => {
    const r = rosterOf(['ana', 'Ana'], ['beto', 'Beto']);
    expect(joined(r, 'ana', 'Ana').participants).toEqual([
      { name: 'Ana', role: 'student' },
      { name: 'Beto', role: 'student' },
    ]);
  });

  it('lists the member as it joins now where the roster holds its seat under another spelling or role', () => {
    const r = rosterOf(['ana', 'ANA'], ['beto', 'Beto']);
    expect(joined(r, 'ana', 'Ana', 'teacher').participants).toEqual([
      { name: 'Beto', role: 'student' },
      { name: 'Ana', role: 'teacher' },
    ]);
    // The roster itself is unchanged by it.
    expect(joined(r, 'ana', 'ANA').participants).toEqual([
      { name: 'ANA', role: 'student' },
      { name: 'Beto', role: 'student' },
    ]);
  });

  it('follows every change to the roster, and builds the list once between two changes (a refresh that agrees is none)', () => {
    const built = jest.spyOn(Buffer, 'allocUnsafeSlow');
    try {
      const r = rosterOf(['ana', 'Ana'], ['beto', 'Beto']);
      const names = (seat: string, name: string) => joined(r, seat, name).participants.map((p) => p.name);
      expect(names('ana', 'Ana')).toEqual(['Ana', 'Beto']);
      expect(names('carla', 'Carla')).toEqual(['Ana', 'Beto', 'Carla']);
      expect(names('beto', 'Beto')).toEqual(['Ana', 'Beto']);
      expect(built).toHaveBeenCalledTimes(1);
      r.set('ana', 'Ana', 'student'); // heard again, unchanged: the list stands
      expect(names('dani', 'Dani')).toEqual(['Ana', 'Beto', 'Dani']);
      expect(built).toHaveBeenCalledTimes(1);
      r.delete('ana');
      expect(names('dani', 'Dani')).toEqual(['Beto', 'Dani']);
      r.set('beto', 'Beto', 'teacher');
      expect(joined(r, 'ana', 'Ana').participants).toEqual([
        { name: 'Beto', role: 'teacher' },
        { name: 'Ana', role: 'student' },
      ]);
      r.replace([{ seat: 'beto', name: 'Beto', role: 'teacher' }]); // the store's read agrees: the list stands
      expect(names('ana', 'Ana')).toEqual(['Beto', 'Ana']);
      expect(built).toHaveBeenCalledTimes(3);
      r.replace([{ seat: 'eva', name: 'Eva', role: 'student' }]);
      expect(names('ana', 'Ana')).toEqual(['Eva', 'Ana']);
      r.delete('eva');
      expect(names('ana', 'Ana')).toEqual(['Ana']);
      expect(r.size).toBe(0);
      expect(built).toHaveBeenCalledTimes(5);
    } finally {
      built.mockRestore();
    }
  });
});

describe('Roster.digestFor', () => {
  it('is the digest of the very list participantsFor answers, whether the member’s seat is held, held otherwise or free', () => {
    const r = rosterOf(['ana', 'Ana'], ['beto', 'Beto'], ['profe', 'Profe', 'teacher']);
    const check = (seat: string, name: string, role: 'student' | 'teacher' = 'student') =>
      expect(r.digestFor(seat, { name, role })).toBe(
        chatRosterDigestOf(joined(r, seat, name, role).participants),
      );
    check('ana', 'Ana');
    check('ana', 'ANA');
    check('ana', 'Ana', 'teacher');
    check('zoe', 'Zoe');
    // It follows the roster as seats come, change and go (and a repeated set or delete changes nothing).
    r.set('zoe', 'Zoe', 'student');
    r.set('zoe', 'Zoe', 'student');
    check('zoe', 'Zoe');
    r.set('beto', 'BETO', 'teacher');
    check('ana', 'Ana');
    r.delete('profe');
    r.delete('profe');
    check('ana', 'Ana');
    r.replace([{ seat: 'ana', name: 'Ana', role: 'student' }]);
    check('ana', 'Ana');
    expect(r.digestFor('ana', { name: 'Ana', role: 'student' })).toBe(
      chatRosterDigestOf([{ name: 'Ana', role: 'student' }]),
    );
  });
});
