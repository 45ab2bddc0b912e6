import { randomUUID } from 'node:crypto';
import type { Writable } from 'node:stream';
import Redis from 'ioredis';
import type { WebSocket } from 'ws';
import { CHAT_HISTORY_DEFAULT, CHAT_SOCKETS_PER_ACCOUNT_DEFAULT, type ChatRole } from '@district/contracts';
import { RedisEphemeralStore, RedisPubSub } from '@district/nest-common';
import { REDIS_URL, capturedLogger, uniqueToken, waitFor } from '@district/nest-common/testing';
import { LiveKeys } from '../../src/live-channels';
import { LiveConnection, type LivePerson, type Membership } from '../../src/live/live-connection';
import type { LiveConfig } from '../../src/live/live.config';
import type { Roster } from '../../src/live/roster';

/**
 * The live hub's parts tested one at a time (issue #35 item 3): each through its own small interface, on the real
 * Redis where it uses the store or pub/sub (under a prefix of this file's run, removed after), with sockets that
 * record what a part writes to them instead of a network.
 */
export function redisParts() {
  const prefix = `chat-parts:${uniqueToken()}:`;
  let adapters: { pubsub: RedisPubSub; store: RedisEphemeralStore; observer: RedisPubSub } | undefined;
  beforeAll(() => {
    adapters = {
      pubsub: new RedisPubSub(REDIS_URL, { prefix }),
      store: new RedisEphemeralStore(REDIS_URL, { prefix }),
      // Another replica's connection: hears what this one publishes, as the cluster's replicas do.
      observer: new RedisPubSub(REDIS_URL, { prefix }),
    };
  });
  afterAll(async () => {
    if (!adapters) return;
    await adapters.pubsub.close();
    await adapters.store.close();
    await adapters.observer.close();
    const redis = new Redis(REDIS_URL);
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length) await redis.del(...keys);
    await redis.quit();
  });
  const started = () => {
    if (!adapters) throw new Error('the Redis adapters open in beforeAll');
    return adapters;
  };
  return {
    prefix,
    get pubsub(): RedisPubSub {
      return started().pubsub;
    },
    get store(): RedisEphemeralStore {
      return started().store;
    },
    /**
     * What another replica hears on a room's channel from now on (the raw messages: `"<seq> <entry>"` or `"- <json>"`).
     * Resolves once subscribed.
     */
    async listen(roomId: string): Promise<{ messages: string[]; events: Array<Record<string, unknown>> }> {
      const messages: string[] = [];
      const events: Array<Record<string, unknown>> = [];
      await started().observer.subscribe(LiveKeys.roomChannel(roomId), (m) => {
        messages.push(m);
        if (m.startsWith('- ')) events.push(JSON.parse(m.slice(2)) as Record<string, unknown>);
      });
      return { messages, events };
    },
    /** How many subscribers Redis counts on a room's channel (every replica's connections). */
    async subscribers(roomId: string): Promise<number> {
      const redis = new Redis(REDIS_URL);
      try {
        const [, n] = (await redis.pubsub('NUMSUB', `${prefix}${LiveKeys.roomChannel(roomId)}`)) as [
          string,
          number,
        ];
        return Number(n);
      } finally {
        await redis.quit();
      }
    },
  };
}

export type RedisParts = ReturnType<typeof redisParts>;

/** The live settings a part reads, at their documented defaults (live.config.ts), with these overrides. */
export function liveConfig(overrides: Partial<LiveConfig> = {}): LiveConfig {
  const defaults = {
    CHAT_HISTORY_SIZE: CHAT_HISTORY_DEFAULT,
    CHAT_HISTORY_TTL_MINUTES: 24 * 60,
    CHAT_SEND_BUFFER_MAX_BYTES: 1024 * 1024,
    CHAT_HEARTBEAT_MS: 5_000,
    CHAT_PING_MS: 30_000,
    CHAT_SESSION_CHECK_MS: 60_000,
    CHAT_ROSTER_REFRESH_MS: 30_000,
    CHAT_MAX_SOCKETS_PER_ACCOUNT: CHAT_SOCKETS_PER_ACCOUNT_DEFAULT,
    GATEWAY_ALLOWED_ORIGINS: [] as string[],
  };
  return { ...defaults, ...overrides } as LiveConfig;
}

export { capturedLogger, waitFor };

/** A server text frame's payload (FIN + text, unmasked; 7, 16 or 64-bit length). */
export function payloadOf(frame: Buffer): string {
  const short = frame[1];
  const head = short < 126 ? 2 : short === 126 ? 4 : 10;
  return frame.subarray(head).toString();
}

export type Frame = Record<string, unknown> & { type: string };

/** A person as the upgrade's session check gives it: an approved student unless said. */
export function personOf(overrides: Partial<LivePerson> = {}): LivePerson {
  return {
    id: randomUUID(),
    role: 'student',
    approved: true,
    canModerate: false,
    tokenVersion: 1,
    sessionId: randomUUID(),
    expiresAt: Number.MAX_SAFE_INTEGER,
    ...overrides,
  };
}

export const teacherOf = (overrides: Partial<LivePerson> = {}) =>
  personOf({ role: 'teacher', canModerate: true, ...overrides });

/**
 * A real `LiveConnection` over a socket that records every frame written to it (parsed) and a WebSocket that
 * records its closes, terminations and pings.
 */
export function fakeClient(
  person: LivePerson = personOf(),
  onTooSlow: (c: LiveConnection) => void = () => {},
) {
  const frames: Frame[] = [];
  const closes: Array<{ code: number; reason: string }> = [];
  const state = { terminated: false, pings: 0 };
  const ws = {
    OPEN: 1,
    CLOSED: 3,
    readyState: 1,
    bufferedAmount: 0,
    close(code: number, reason: string) {
      closes.push({ code, reason });
    },
    terminate() {
      state.terminated = true;
      ws.readyState = 3;
    },
    ping() {
      state.pings += 1;
    },
  };
  const socket = {
    write: (frame: Buffer) => void frames.push(JSON.parse(payloadOf(frame)) as Frame),
    cork: () => undefined,
    uncork: () => undefined,
  };
  const c = new LiveConnection(
    ws as unknown as WebSocket,
    socket as unknown as Writable,
    person,
    1024 * 1024,
    onTooSlow,
  );
  return {
    c,
    ws,
    frames,
    closes,
    state,
    person,
    /** The frames of this type, in the order written. */
    of(type: string): Frame[] {
      return frames.filter((f) => f.type === type);
    },
    /** Waits until `n` frames of this type were written (5 s). */
    async wait(type: string, n = 1): Promise<Frame[]> {
      await waitFor(() => frames.filter((f) => f.type === type).length >= n, `${n} ${type} frame(s)`);
      return frames.filter((f) => f.type === type);
    },
  };
}

export type FakeClient = ReturnType<typeof fakeClient>;

/** A membership of `roomId` as a finished join leaves it (nothing pending). */
export function membershipOf(roomId: string, name = 'Ana', overrides: Partial<Membership> = {}): Membership {
  return {
    roomId,
    name,
    seat: name.toLowerCase(),
    token: randomUUID(),
    lastSeq: 0,
    pending: null,
    mutedUntil: 0,
    slowModeSeconds: 0,
    ...overrides,
  };
}

/** A kept message's entry, as sending appends it: `"<userId> <json>"`. */
export function messageEntry(
  roomId: string,
  text: string,
  userId = randomUUID(),
  name = 'Ana',
  role: ChatRole = 'student',
): { id: string; entry: string } {
  const id = randomUUID();
  const json = JSON.stringify({
    type: 'message',
    id,
    name,
    role,
    text,
    timestamp: new Date().toISOString(),
    chatroom: roomId,
  });
  return { id, entry: `${userId} ${json}` };
}

/** Who a roster holds, by name and role (the list a join is answered with, less the probe that asks). */
export function namesIn(roster: Roster): Array<{ name: string; role: string }> {
  const parts = roster.participantsFor('\u0000probe', { name: '\u0000', role: 'student' });
  const list = JSON.parse(
    Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p) : p))).toString(),
  ) as Array<{
    name: string;
    role: string;
  }>;
  return list.filter((p) => p.name !== '\u0000');
}
