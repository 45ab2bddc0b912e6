import type { Chatroom } from '@district/contracts';
import { TokenService } from '@district/nest-common';
import type { HttpClient, Persona, TestPerson, TokenOverrides } from '@district/nest-common/testing';
import { createRoom, startChat, type ChatTestApp } from './chat-app';
import { ChatSocket } from './chat-socket';

/** A person signed in for a live test: their session cookie, its id, and a client holding it. */
export interface LivePerson {
  id: string;
  name: string;
  cookie: string;
  /** The session's id (the token's `sid`), as a sign-out revokes it. */
  sid: string;
  client: HttpClient;
}

/**
 * One chat app for a spec file of live (WebSocket) tests: started before the file, closed after it; every socket a
 * test opens through `open` is closed after that test.
 */
export function liveBench() {
  let app: ChatTestApp | undefined;
  let admin: HttpClient | undefined;
  const sockets: ChatSocket[] = [];
  beforeAll(async () => {
    app = await startChat();
    admin = (await app.signIn('admin')).client;
  });
  afterEach(() => {
    for (const s of sockets.splice(0)) s.close();
  });
  afterAll(async () => {
    await app?.close();
  });
  const started = () => {
    if (!app || !admin) throw new Error('the chat app starts in beforeAll');
    return { app, admin };
  };
  return {
    get app(): ChatTestApp {
      return started().app;
    },
    get admin(): HttpClient {
      return started().admin;
    },
    /** A new person of that kind signed in (with `overrides.id`: the same person again, on a new session). */
    async person(
      persona: Persona,
      overrides: Partial<TestPerson> & TokenOverrides = {},
    ): Promise<LivePerson> {
      const { app } = started();
      const { client, person } = await app.signIn(persona, overrides);
      const cookie = client.jar.header(new URL(app.runtime.publicUrl)) as string;
      const claims = await new TokenService(app.runtime.keys).verify(
        /district_session=([^;]+)/.exec(cookie)?.[1],
      );
      return { id: person.id, name: person.name, cookie, sid: claims?.sid ?? '', client };
    },
    /** Closes these sockets (opened some other way) after the test, with the rest. */
    track(...opened: ChatSocket[]): void {
      sockets.push(...opened);
    },
    async open(cookie: string): Promise<ChatSocket> {
      const s = await ChatSocket.open(started().app.url, { cookie });
      sockets.push(s);
      return s;
    },
    room(invitedUserIds: string[] = [], name?: string): Promise<Chatroom> {
      return createRoom(started().admin, invitedUserIds, name);
    },
  };
}
