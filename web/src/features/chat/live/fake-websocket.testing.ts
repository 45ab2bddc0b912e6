// Test-only stand-in for the browser's WebSocket: records what the screen sends and lets a test play the server.
import { act } from '@testing-library/react';

export class FakeWebSocket extends EventTarget {
  static readonly CONNECTING = 0;
  static readonly OPEN = 1;
  static readonly CLOSING = 2;
  static readonly CLOSED = 3;
  /** Every socket made since the last reset, oldest first. */
  static instances: FakeWebSocket[] = [];
  static reset(): void {
    FakeWebSocket.instances = [];
  }
  static get last(): FakeWebSocket {
    const socket = FakeWebSocket.instances.at(-1);
    if (!socket) throw new Error('No WebSocket was opened');
    return socket;
  }

  readonly CONNECTING = 0;
  readonly OPEN = 1;
  readonly CLOSING = 2;
  readonly CLOSED = 3;
  readyState = FakeWebSocket.CONNECTING;
  /** Frames the client sent, parsed. */
  readonly sent: Array<Record<string, unknown>> = [];
  closedByClient: number | null = null;

  constructor(readonly url: string) {
    super();
    FakeWebSocket.instances.push(this);
  }

  send(data: string): void {
    if (this.readyState !== FakeWebSocket.OPEN) throw new Error('send on a socket that is not open');
    this.sent.push(JSON.parse(data) as Record<string, unknown>);
  }

  close(code = 1000): void {
    if (this.readyState === FakeWebSocket.CLOSED) return;
    this.closedByClient = code;
    this.readyState = FakeWebSocket.CLOSED;
    this.dispatchEvent(Object.assign(new Event('close'), { code, reason: '', wasClean: true }));
  }

  // ---- the server's side ----

  /** The handshake succeeded. */
  open(): void {
    this.readyState = FakeWebSocket.OPEN;
    this.dispatchEvent(new Event('open'));
  }

  /** A frame from the server. */
  receive(event: object): void {
    this.dispatchEvent(Object.assign(new Event('message'), { data: JSON.stringify(event) }));
  }

  /** The server (or the network) closed the connection. */
  drop(code = 1006): void {
    this.readyState = FakeWebSocket.CLOSED;
    this.dispatchEvent(Object.assign(new Event('close'), { code, reason: '', wasClean: code !== 1006 }));
  }

  /** The frames of one type the client sent. */
  sentOfType(type: string): Array<Record<string, unknown>> {
    return this.sent.filter((f) => f.type === type);
  }
}

/** The same operations wrapped in act(), for screen tests. */
export const server = {
  open: (ws: FakeWebSocket) => act(() => ws.open()),
  receive: (ws: FakeWebSocket, ...events: object[]) => act(() => events.forEach((e) => ws.receive(e))),
  drop: (ws: FakeWebSocket, code?: number) => act(() => ws.drop(code)),
};
