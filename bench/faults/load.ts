import { randomBytes, randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { WebSocket } from 'ws';

/**
 * The fault suite's steady mixed load through the gateway (issue #14 §3): anonymous and signed-in reads, comment
 * writes, grade submissions (with an Idempotency-Key, retried with the same key as the web client does), comment
 * moderation and role changes (events other services consume), and chat clients that send a message every
 * couple of seconds and reconnect with catch-up (`since`, `resume`) when their socket closes.
 */

export interface RequestRecord {
  op: string;
  at: number;
  ms: number;
  /** HTTP status, or 0 when no answer came (connection refused or reset, timeout). */
  status: number;
  error?: string;
}

export interface Personas {
  gateway: string;
  student: string;
  teacher: string;
  admin: string;
  postId: string;
  quizId: string;
  roomId: string;
  /**
   * One approved teacher's session per chat client: chat's limits are per account (ADR 0031: 5 messages per 5 s,
   * 5 sockets), and eight people chatting is what the suite means, not two accounts with four tabs each.
   */
  chatters: string[];
  /** A user whose role the load toggles (identity.user.updated, consumed by four services). */
  dummyUserId: string;
}

export interface LoadRates {
  /** Requests per second of each stream. */
  anonymousReads: number;
  studentReads: number;
  /** A student's audio lists (classroom) and chat rooms (chat): every service gets requests. */
  classroomReads: number;
  chatReads: number;
  comments: number;
  grades: number;
  moderation: number;
  roleChanges: number;
  chatClients: number;
  /** Seconds between one chat client's messages. */
  chatEverySeconds: number;
}

export const DEFAULT_RATES: LoadRates = {
  anonymousReads: 12,
  studentReads: 6,
  classroomReads: 3,
  chatReads: 2,
  comments: 3,
  grades: 3,
  moderation: 1.5,
  roleChanges: 0.5,
  chatClients: 8,
  chatEverySeconds: 2,
};

const REQUEST_TIMEOUT_MS = 30_000;

export class MixedLoad {
  readonly records: RequestRecord[] = [];
  /** Comment ids the API acknowledged (201). */
  readonly comments: string[] = [];
  private moderated = 0;
  /** Idempotency keys of grade submissions: the stored id once acknowledged, null while unknown. */
  readonly grades = new Map<string, string | null>();
  /** Role changes acknowledged (200). */
  roleChanges = 0;
  readonly peers: ChatPeer[] = [];
  /** The last chat message number a scenario's window has checked for gaps (the next window starts after it). */
  chatCheckedThrough: number | undefined;
  private running = false;
  private loops: Promise<void>[] = [];

  constructor(
    private readonly p: Personas,
    private readonly rates: LoadRates = DEFAULT_RATES,
  ) {}

  async start(): Promise<void> {
    this.running = true;
    for (let i = 0; i < this.rates.chatClients; i++) {
      const peer = new ChatPeer(
        this.p.gateway,
        this.p.chatters[i % this.p.chatters.length],
        `peer${i}`,
        this.p.roomId,
      );
      this.peers.push(peer);
      await peer.connect();
    }
    await Promise.all(this.peers.map((peer) => peer.waitJoined(10_000)));
    let role = 'teacher';
    this.loops = [
      this.every(this.rates.anonymousReads, () => this.call('read.posts', 'GET', '/api/posts/public')),
      this.every(this.rates.studentReads, () =>
        this.call('read.quizzes', 'GET', '/api/text-quizzes', this.p.student),
      ),
      this.every(this.rates.classroomReads, () =>
        this.call('read.lists', 'GET', '/api/audio-lists', this.p.student),
      ),
      this.every(this.rates.chatReads, () =>
        this.call('read.rooms', 'GET', '/api/chatrooms', this.p.student),
      ),
      this.every(this.rates.comments, async () => {
        const res = await this.call(
          'write.comment',
          'POST',
          `/api/posts/${this.p.postId}/comments`,
          this.p.student,
          { content: `load ${Date.now()}` },
        );
        if (res.status === 201 && res.body?.id) this.comments.push(String(res.body.id));
      }),
      this.every(this.rates.grades, () => this.submitGrade()),
      this.every(this.rates.moderation, async () => {
        if (this.moderated >= this.comments.length) return;
        const id = this.comments[this.moderated++];
        await this.call('write.moderate', 'PATCH', `/api/comments/${id}/status`, this.p.admin, {
          status: 'approved',
        });
      }),
      this.every(this.rates.roleChanges, async () => {
        role = role === 'teacher' ? 'student' : 'teacher';
        const res = await this.call(
          'write.role',
          'PATCH',
          `/api/users/${this.p.dummyUserId}/role`,
          this.p.admin,
          { role },
        );
        if (res.status === 200) this.roleChanges += 1;
      }),
      ...this.peers.map((peer, i) => this.chatLoop(peer, i)),
    ];
  }

  async stop(): Promise<void> {
    this.running = false;
    await Promise.all(this.loops);
    for (const peer of this.peers) peer.close();
  }

  private async chatLoop(peer: ChatPeer, index: number): Promise<void> {
    // Spread the clients' sends over the interval.
    await sleep((index * this.rates.chatEverySeconds * 1000) / Math.max(1, this.rates.chatClients));
    while (this.running) {
      peer.sendNext();
      await sleep(this.rates.chatEverySeconds * 1000);
    }
  }

  /** One submission: retried with the same key (up to 6 tries, 500 ms apart) until an answer says what happened. */
  private async submitGrade(): Promise<void> {
    const key = randomUUID();
    this.grades.set(key, null);
    for (let attempt = 0; attempt < 6; attempt++) {
      const res = await this.call(
        'write.grade',
        'POST',
        '/api/text-quiz-grades',
        this.p.student,
        { quizId: this.p.quizId, userAnswers: [0] },
        { 'idempotency-key': key },
      );
      if ((res.status === 200 || res.status === 201) && res.body?.id) {
        this.grades.set(key, String(res.body.id));
        return;
      }
      if (res.status >= 400 && res.status < 500 && res.status !== 408 && res.status !== 429) return;
      await sleep(500);
    }
  }

  /** Runs `fn` `perSecond` times a second (open loop: a slow answer does not slow the stream). */
  private async every(perSecond: number, fn: () => Promise<unknown>): Promise<void> {
    if (perSecond <= 0) return;
    const gap = 1000 / perSecond;
    const inFlight = new Set<Promise<unknown>>();
    let next = Date.now();
    while (this.running) {
      const task = fn().catch(() => undefined);
      inFlight.add(task);
      void task.finally(() => inFlight.delete(task));
      next += gap;
      const wait = next - Date.now();
      if (wait > 0) await sleep(wait);
    }
    await Promise.all(inFlight);
  }

  async call(
    op: string,
    method: string,
    route: string,
    cookie?: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<{ status: number; body?: Record<string, unknown> }> {
    const at = Date.now();
    try {
      const res = await fetch(`${this.p.gateway}${route}`, {
        method,
        headers: {
          origin: this.p.gateway,
          ...(cookie ? { cookie } : {}),
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          ...headers,
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
      const text = await res.text();
      const record: RequestRecord = { op, at, ms: Date.now() - at, status: res.status };
      let parsed: Record<string, unknown> | undefined;
      try {
        parsed = text ? (JSON.parse(text) as Record<string, unknown>) : undefined;
      } catch {
        parsed = undefined;
      }
      if (res.status >= 400) record.error = String(parsed?.message ?? text.slice(0, 200));
      this.records.push(record);
      return { status: res.status, body: parsed };
    } catch (error) {
      const cause = (error as { cause?: { code?: string } }).cause?.code;
      this.records.push({ op, at, ms: Date.now() - at, status: 0, error: cause ?? (error as Error).name });
      return { status: 0 };
    }
  }
}

/**
 * A chat client as the web app behaves: joins the room, and when its socket closes, opens a new one and joins
 * again with `since` (the last message number it saw) and `resume` (its seat's token), so the server replays
 * what it missed. Every message number it sees is kept to find gaps and duplicates. Its messages carry a ref and
 * are held until they come back (or `sent` answers a repeat); a rejoin sends the held ones again, and a notice
 * naming a ref refuses it — so every message ends confirmed or refused, never silently lost.
 */
export class ChatPeer {
  ws: WebSocket | undefined;
  joined = false;
  lastSeq = 0;
  /** The first message number this client must see: one past the room's last when it first joined. */
  firstSeq: number | undefined;
  readonly seqs = new Set<number>();
  /** When each message number arrived here (ms epoch). */
  readonly arrivals = new Map<number, number>();
  duplicates = 0;
  truncated = 0;
  sent = 0;
  /** Refs of messages sent and not yet heard back (nor refused), with when they were first sent (ms epoch). */
  readonly pending = new Map<string, { text: string; at: number }>();
  confirmed = 0;
  /** Messages refused by a notice naming their ref (the web app shows them "Not sent"). */
  refused = 0;
  closes = 0;
  /** Each reconnect: ms from the socket closing to the new join being confirmed. */
  readonly reconnectMs: number[] = [];
  readonly notices: string[] = [];
  private closedAt: number | undefined;
  private resume: string | undefined;
  private stopping = false;
  private counter = 0;
  private readonly refBase = randomBytes(6).toString('hex');

  constructor(
    private readonly gateway: string,
    private readonly cookie: string,
    readonly name: string,
    private readonly room: string,
  ) {}

  connect(): Promise<void> {
    if (this.stopping) return Promise.resolve();
    const ws = new WebSocket(`${this.gateway.replace(/^http/, 'ws')}/ws`, {
      origin: this.gateway,
      headers: { cookie: this.cookie },
    });
    this.ws = ws;
    this.joined = false;
    return new Promise((resolve) => {
      ws.on('open', () => {
        ws.send(
          JSON.stringify({
            type: 'join',
            name: this.name,
            chatroom: this.room,
            ...(this.lastSeq ? { since: this.lastSeq } : {}),
            ...(this.resume ? { resume: this.resume } : {}),
          }),
        );
        resolve();
      });
      ws.on('message', (data) => this.onEvent(JSON.parse(data.toString()) as Record<string, unknown>));
      // A refused upgrade (say 503 while no chat replica is up) ends in 'error' then 'close': try again.
      ws.on('error', () => undefined);
      ws.on('close', () => {
        if (this.ws !== ws) return;
        this.joined = false;
        this.closes += 1;
        this.closedAt ??= Date.now();
        resolve();
        if (!this.stopping) setTimeout(() => void this.connect(), 250 + Math.random() * 250);
      });
    });
  }

  private onEvent(event: Record<string, unknown>): void {
    if (event.type === 'joined') {
      this.joined = true;
      this.resume = String(event.resume);
      if (event.truncated) this.truncated += 1;
      if (this.firstSeq === undefined) this.firstSeq = Number(event.seq) + 1;
      if (this.closedAt !== undefined) this.reconnectMs.push(Date.now() - this.closedAt);
      this.closedAt = undefined;
      for (const [ref, { text }] of this.pending) {
        this.ws?.send(JSON.stringify({ type: 'message', text, chatroom: this.room, ref }));
      }
    } else if (event.type === 'message') {
      const seq = Number(event.seq);
      if (this.seqs.has(seq)) this.duplicates += 1;
      else {
        this.seqs.add(seq);
        this.arrivals.set(seq, Date.now());
      }
      this.lastSeq = Math.max(this.lastSeq, seq);
      if (typeof event.ref === 'string' && this.pending.delete(event.ref)) this.confirmed += 1;
    } else if (event.type === 'sent') {
      if (this.pending.delete(String(event.ref))) this.confirmed += 1;
    } else if (event.type === 'join_rejected') {
      // The old seat may still be held (a killed replica's, until its liveness expires): try again shortly.
      this.notices.push(`join_rejected:${String(event.reason)}`);
      this.ws?.close();
    } else if (event.type === 'notice') {
      this.notices.push(String(event.code));
      // not_joined: the socket was out of the room (its replica stopping); the message goes again with the rejoin.
      if (typeof event.ref === 'string' && event.code !== 'not_joined' && this.pending.delete(event.ref))
        this.refused += 1;
    }
  }

  sendNext(): void {
    if (!this.joined || this.ws?.readyState !== WebSocket.OPEN) return;
    const text = `${this.name} #${++this.counter}`;
    const ref = `${this.refBase}-${this.counter}`;
    this.pending.set(ref, { text, at: Date.now() });
    this.sent += 1;
    this.ws.send(JSON.stringify({ type: 'message', text, chatroom: this.room, ref }));
  }

  async waitJoined(timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!this.joined) {
      if (Date.now() > deadline)
        throw new Error(`${this.name} did not join within ${timeoutMs} ms (${this.notices.join(', ')})`);
      await sleep(20);
    }
  }

  close(): void {
    this.stopping = true;
    this.ws?.close();
  }
}

/** Message numbers in [from, to] that `peer` never saw (it joined before `from`). */
export function missingSeqs(peer: ChatPeer, from: number, to: number): number[] {
  const missing: number[] = [];
  const start = Math.max(from, peer.firstSeq ?? Infinity);
  for (let seq = start; seq <= to; seq++) if (!peer.seqs.has(seq)) missing.push(seq);
  return missing;
}
