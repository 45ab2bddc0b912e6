import type { WebSocket } from 'ws';
import { CHAT_RATE_MESSAGES, CHAT_RATE_WINDOW_MS } from '@district/contracts';
import { LiveConnection, type LivePerson } from './live-connection';

const person: LivePerson = {
  id: 'u',
  role: 'student',
  approved: true,
  canModerate: false,
  tokenVersion: 1,
  sessionId: 's',
  expiresAt: Number.MAX_SAFE_INTEGER,
};

function fakeSocket() {
  const sent: Buffer[] = [];
  const ws = { OPEN: 1, readyState: 1, bufferedAmount: 0, send: (frame: Buffer) => sent.push(frame) };
  return { ws, sent };
}

describe('LiveConnection', () => {
  it('sends frames until the unsent bytes pass the limit, then cuts the client off instead', () => {
    const { ws, sent } = fakeSocket();
    const cut: LiveConnection[] = [];
    const c = new LiveConnection(ws as unknown as WebSocket, person, 1000, (x) => cut.push(x));
    c.sendFrame(Buffer.from('a'));
    ws.bufferedAmount = 1000;
    c.sendFrame(Buffer.from('b'));
    expect(sent.map(String)).toEqual(['a', 'b']);
    ws.bufferedAmount = 1001;
    c.sendFrame(Buffer.from('c'));
    expect(sent).toHaveLength(2);
    expect(cut).toEqual([c]);
    c.closing = true;
    ws.bufferedAmount = 0;
    c.sendFrame(Buffer.from('d'));
    expect(sent).toHaveLength(2);
  });

  it('allows a burst of 5, then one a second, and says how long to wait', () => {
    const c = new LiveConnection(fakeSocket().ws as unknown as WebSocket, person, 1000, () => undefined);
    const t0 = 1_000_000;
    for (let i = 0; i < CHAT_RATE_MESSAGES; i++) expect(c.takeRateSlot(t0)).toBe(0);
    const perMessage = CHAT_RATE_WINDOW_MS / CHAT_RATE_MESSAGES;
    expect(c.takeRateSlot(t0)).toBe(perMessage);
    expect(c.takeRateSlot(t0 + perMessage - 1)).toBe(1);
    expect(c.takeRateSlot(t0 + perMessage)).toBe(0);
    // A steady sender at the allowed rate is never refused, whatever the jitter of its timer.
    const steady = new LiveConnection(fakeSocket().ws as unknown as WebSocket, person, 1000, () => undefined);
    let now = t0;
    for (let i = 0; i < 100; i++) {
      now += perMessage + (i % 2 ? 300 : -300);
      expect(steady.takeRateSlot(now)).toBe(0);
    }
  });
});
