import { ChatCloseCodes, ChatLiveMessages, type Chatroom } from '@district/contracts';
import { MemoryEphemeralStore, type SeatClaim, type SeatHolder } from '@district/nest-common';
import type { HttpClient, Persona } from '@district/nest-common/testing';
import { LiveKeys } from '../src/live-channels';
import { createRoom, startChat, type ChatTestApp } from './support/chat-app';
import { ChatSocket } from './support/chat-socket';

/**
 * A change to a room closes the members it finds when the replica hears of it. These tests hold a join between
 * its read of the room and its entry (at its seat claim) while the room changes, which is where a join used to
 * slip past the change and stay in a room it may no longer be in.
 */
class HeldStore extends MemoryEphemeralStore {
  private held: { entered: () => void; released: Promise<void> } | null = null;

  /** The next seat claim waits for `release`; `entered` resolves once it is waiting. */
  holdNextClaim(): { entered: Promise<void>; release: () => void } {
    let entered!: () => void;
    let release!: () => void;
    const enteredP = new Promise<void>((resolve) => (entered = resolve));
    const released = new Promise<void>((resolve) => (release = resolve));
    this.held = { entered, released };
    return { entered: enteredP, release };
  }

  override async claimSeat(
    group: string,
    seat: string,
    holder: SeatHolder,
    takeOverFrom?: string,
  ): Promise<SeatClaim> {
    const held = this.held;
    if (held) {
      this.held = null;
      held.entered();
      await held.released;
    }
    return super.claimSeat(group, seat, holder, takeOverFrom);
  }
}

const store = new HeldStore();
let app: ChatTestApp;
let admin: HttpClient;
const sockets: ChatSocket[] = [];

beforeAll(async () => {
  app = await startChat({ runtime: { store } });
  admin = (await app.signIn('admin')).client;
});
afterEach(() => {
  for (const s of sockets.splice(0)) s.close();
});
afterAll(async () => {
  await app?.close();
  await store.close();
});

async function person(persona: Persona) {
  const { client, person: p } = await app.signIn(persona);
  return { id: p.id, cookie: client.jar.header(new URL(app.runtime.publicUrl)) as string };
}

async function open(cookie: string): Promise<ChatSocket> {
  const s = await ChatSocket.open(app.url, { cookie });
  sockets.push(s);
  return s;
}

function room(invitedUserIds: string[]): Promise<Chatroom> {
  return createRoom(admin, invitedUserIds);
}

/** Makes `change` while `s`'s join of `r` is held at its seat claim, and lets the join go on once the replica heard it. */
async function changeDuringJoin(
  s: ChatSocket,
  r: Chatroom,
  name: string,
  change: () => Promise<unknown>,
): Promise<void> {
  const hold = store.holdNextClaim();
  s.send({ type: 'join', name, role: 'student', chatroom: r.id });
  await hold.entered;
  let heard!: () => void;
  const heardP = new Promise<void>((resolve) => (heard = resolve));
  // Subscribed after the replica, so this runs once the replica has heard the change.
  const stop = await app.runtime.pubsub.subscribe(LiveKeys.control, () => heard());
  await change();
  await heardP;
  await stop();
  hold.release();
}

describe('a room changed while a join is on its way in', () => {
  it('closes the joiner of a room deactivated meanwhile, frees its name, and never says it joined', async () => {
    const st = await person('student');
    const r = await room([st.id]);
    const s = await open(st.cookie);
    await changeDuringJoin(s, r, 'Ana', () => admin.put(`/api/admin/chatrooms/${r.id}`, { isActive: false }));
    expect(await s.type('notice', 1000)).toMatchObject({
      code: 'room_closed',
      text: ChatLiveMessages.roomClosed,
      chatroom: r.id,
    });
    expect((await s.closedWith(1000)).code).toBe(ChatCloseCodes.roomClosed);
    expect(s.events.filter((e) => e.type === 'joined')).toEqual([]);
    // The name is free again once the room is back.
    expect(await store.seats(LiveKeys.names(r.id))).toEqual([]);
    await admin.put(`/api/admin/chatrooms/${r.id}`, { isActive: true });
    expect(await (await open(st.cookie)).join(r.id, 'Ana')).toMatchObject({ type: 'joined', name: 'Ana' });
  });

  it('closes a student uninvited meanwhile, and keeps a join when another room changed', async () => {
    const st = await person('student');
    const r = await room([st.id]);
    const s = await open(st.cookie);
    await changeDuringJoin(s, r, 'Bea', () =>
      admin.put(`/api/admin/chatrooms/${r.id}`, { invitedUserIds: [] }),
    );
    expect((await s.closedWith(1000)).code).toBe(ChatCloseCodes.roomClosed);
    expect(s.events.filter((e) => e.type === 'joined')).toEqual([]);

    const other = await room([]);
    const r2 = await room([st.id]);
    const s2 = await open(st.cookie);
    await changeDuringJoin(s2, r2, 'Bea', () =>
      admin.put(`/api/admin/chatrooms/${other.id}`, { isActive: false }),
    );
    expect(await s2.type('joined', 1000)).toMatchObject({ name: 'Bea', chatroom: r2.id });
    expect(s2.closed).toBeNull();
  });
});
