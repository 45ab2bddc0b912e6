import { sleep, uniqueToken, waitFor } from '../bus/test-support';
import type { EphemeralStore, PubSub } from './pubsub.port';

/**
 * Opens an adapter in `namespace`. Two calls with the same namespace are two replicas sharing one backend;
 * different namespaces must not see each other.
 */
export type PortFactory<T> = (namespace: string) => Promise<T>;

const SETTLE_MS = 150;

/** The PubSub contract, run unchanged against every adapter. */
export function describePubSubContract(name: string, factory: PortFactory<PubSub>): void {
  describe(`PubSub contract: ${name}`, () => {
    let opened: PubSub[] = [];
    let ns: string;
    const open = async (namespace = ns) => {
      const p = await factory(namespace);
      opened.push(p);
      return p;
    };

    beforeEach(() => {
      ns = `ps${uniqueToken()}:`;
    });
    afterEach(async () => {
      await Promise.all(opened.map((p) => p.close()));
      opened = [];
    });

    it('delivers to every subscriber of the channel, across replicas, and not to other channels', async () => {
      const a = await open();
      const b = await open();
      const onA: string[] = [];
      const onB: string[] = [];
      const other: string[] = [];
      await a.subscribe('room.1', (m) => onA.push(m));
      await b.subscribe('room.1', (m) => onB.push(m));
      await b.subscribe('room.2', (m) => other.push(m));
      await a.publish('room.1', 'hello');
      await waitFor(() => onA.length === 1 && onB.length === 1, 'both subscribers');
      await sleep(SETTLE_MS);
      expect(onA).toEqual(['hello']);
      expect(onB).toEqual(['hello']);
      expect(other).toEqual([]);
    });

    it('keeps namespaces apart', async () => {
      const mine = await open();
      const theirs = await open(`${ns}other:`);
      const heard: string[] = [];
      await theirs.subscribe('chan', (m) => heard.push(m));
      await mine.publish('chan', 'x');
      await sleep(SETTLE_MS);
      expect(heard).toEqual([]);
    });

    it('keeps publish order', async () => {
      const a = await open();
      const b = await open();
      const got: string[] = [];
      await b.subscribe('seq', (m) => got.push(m));
      const sent = Array.from({ length: 200 }, (_, i) => `m${i}`);
      for (const m of sent) await a.publish('seq', m);
      await waitFor(() => got.length === sent.length, 'all messages');
      expect(got).toEqual(sent);
    });

    it('stops delivering to a removed subscription and keeps the others', async () => {
      const p = await open();
      const first: string[] = [];
      const second: string[] = [];
      const unsubscribe = await p.subscribe('u', (m) => first.push(m));
      await p.subscribe('u', (m) => second.push(m));
      await p.publish('u', '1');
      await waitFor(() => first.length === 1 && second.length === 1, 'first message');
      await unsubscribe();
      await unsubscribe();
      await p.publish('u', '2');
      await waitFor(() => second.length === 2, 'second message');
      await sleep(SETTLE_MS);
      expect(first).toEqual(['1']);
      expect(second).toEqual(['1', '2']);
    });

    it('isolates a throwing handler from the other handlers', async () => {
      const p = await open();
      const got: string[] = [];
      await p.subscribe('t', () => {
        throw new Error('handler bug');
      });
      await p.subscribe('t', (m) => got.push(m));
      await p.publish('t', 'a');
      await p.publish('t', 'b');
      await waitFor(() => got.length === 2, 'both messages');
      expect(got).toEqual(['a', 'b']);
    });

    it('carries arbitrary text unchanged', async () => {
      const p = await open();
      const got: string[] = [];
      await p.subscribe('text', (m) => got.push(m));
      const text = JSON.stringify({ msg: 'héllo 👋\n"quoted"', n: 1 });
      await p.publish('text', text);
      await p.publish('text', '');
      await waitFor(() => got.length === 2, 'messages');
      expect(got).toEqual([text, '']);
    });

    it('numbers a log across replicas and publishes its entries in number order', async () => {
      const a = await open();
      const b = await open();
      const got: string[] = [];
      await b.subscribe('room', (m) => got.push(m));
      const options = { keep: 10, ttlMs: 60_000 };
      const seqs = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          (i % 2 ? a : b).appendAndPublish('room', 'log:1', `e${i}`, options),
        ),
      );
      expect([...seqs].sort((x, y) => x - y)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
      await waitFor(() => got.length === 20, 'published entries');
      expect(got.map((m) => Number(m.split(' ')[0]))).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
      // Each published entry is the one numbered so.
      for (const m of got) expect(seqs[Number(m.slice(m.indexOf(' ') + 2))]).toBe(Number(m.split(' ')[0]));
    });

    it('keeps the newest entries of a log and says when a reader missed dropped ones', async () => {
      const p = await open();
      const options = { keep: 3, ttlMs: 60_000 };
      for (const e of ['a', 'b', 'c', 'd', 'e']) await p.appendAndPublish('ch', 'log:2', e, options);
      expect(await p.readLog('log:2', 3)).toEqual({
        entries: [
          { seq: 4, entry: 'd' },
          { seq: 5, entry: 'e' },
        ],
        last: 5,
        truncated: false,
      });
      const behind = await p.readLog('log:2', 1);
      expect(behind.entries.map((e) => e.seq)).toEqual([3, 4, 5]);
      expect(behind.truncated).toBe(true);
      expect(await p.readLog('log:2', 5)).toEqual({ entries: [], last: 5, truncated: false });
      // A reader that wants nothing kept (a first join) gets nothing, and no truncation.
      expect(await p.readLog('log:2', Number.MAX_SAFE_INTEGER)).toEqual({
        entries: [],
        last: 5,
        truncated: false,
      });
      expect(await p.readLog('log:none', 0)).toEqual({ entries: [], last: 0, truncated: false });
    });

    it('removes entries on purpose without calling the reader truncated, and forgets a deleted log', async () => {
      const p = await open();
      const options = { keep: 10, ttlMs: 60_000 };
      await p.appendAndPublish('ch', 'rooms:1', 'u1 hello', options);
      await p.appendAndPublish('ch', 'rooms:1', 'u2 hi', options);
      await p.appendAndPublish('ch', 'rooms:2', 'u1 again', options);
      await p.appendAndPublish('ch', 'other:1', 'u1 elsewhere', options);
      expect(await p.removeFromLog('rooms:1', 2)).toBe(true);
      expect(await p.removeFromLog('rooms:1', 2)).toBe(false);
      expect(await p.removeFromLog('rooms:1', 99)).toBe(false);
      expect(await p.removeFromLogs('rooms:', 'u1')).toBe(2);
      expect(await p.readLog('rooms:1', 0)).toEqual({ entries: [], last: 2, truncated: false });
      expect((await p.readLog('other:1', 0)).entries).toEqual([{ seq: 1, entry: 'u1 elsewhere' }]);
      await p.appendAndPublish('ch', 'rooms:1', 'u3 later', options);
      expect((await p.readLog('rooms:1', 0)).entries).toEqual([{ seq: 3, entry: 'u3 later' }]);
      await p.deleteLog('rooms:1');
      expect(await p.readLog('rooms:1', 0)).toEqual({ entries: [], last: 0, truncated: false });
    });

    it('appends an entry made once only once while its key lives, on any replica, and says which number it got', async () => {
      const a = await open();
      const b = await open();
      const got: string[] = [];
      await b.subscribe('ch', (m) => got.push(m));
      const options = (key: string, ttlMs = 60_000) => ({ keep: 10, ttlMs: 60_000, once: { key, ttlMs } });
      expect(await a.appendAndPublish('ch', 'log:5', 'u1 first', options('sent:u1:r1'))).toBe(1);
      // The same send again, after a dropped connection, through the other replica: nothing appended or published.
      expect(await b.appendAndPublish('ch', 'log:5', 'u1 first', options('sent:u1:r1'))).toBe(-1);
      expect(await b.appendAndPublish('ch', 'log:5', 'u1 second', options('sent:u1:r2', 150))).toBe(2);
      expect(await a.appendAndPublish('ch', 'log:5', 'u1 plain', { keep: 10, ttlMs: 60_000 })).toBe(3);
      expect(await a.appendAndPublish('ch', 'log:5', 'u1 second', options('sent:u1:r2'))).toBe(-2);
      await sleep(250);
      // Its key expired: the same key appends again.
      expect(await a.appendAndPublish('ch', 'log:5', 'u1 second', options('sent:u1:r2'))).toBe(4);
      await waitFor(() => got.length === 4, 'published entries');
      expect(got).toEqual(['1 u1 first', '2 u1 second', '3 u1 plain', '4 u1 second']);
      expect((await a.readLog('log:5', 0)).entries.map((e) => e.entry)).toEqual([
        'u1 first',
        'u1 second',
        'u1 plain',
        'u1 second',
      ]);
    });

    it("drops a log's entries when it expires but never reuses its numbers", async () => {
      const p = await open();
      await p.appendAndPublish('ch', 'log:3', 'a', { keep: 5, ttlMs: 100 });
      await sleep(250);
      expect(await p.readLog('log:3', 0)).toEqual({ entries: [], last: 1, truncated: true });
      expect(await p.appendAndPublish('ch', 'log:3', 'b', { keep: 5, ttlMs: 60_000 })).toBe(2);
    });

    it("numbers above the caller's floor once the store has lost a log's numbering, and never below its own", async () => {
      const p = await open();
      const options = { keep: 5, ttlMs: 60_000 };
      await p.appendAndPublish('ch', 'log:4', 'a', options);
      await p.appendAndPublish('ch', 'log:4', 'b', options);
      // The store forgets the log (a Redis restarted without persistence) while clients hold numbers up to 2.
      await p.deleteLog('log:4');
      expect(await p.appendAndPublish('ch', 'log:4', 'c', { ...options, floor: 2 })).toBe(3);
      // A floor below the log's own number changes nothing.
      expect(await p.appendAndPublish('ch', 'log:4', 'd', { ...options, floor: 1 })).toBe(4);
      expect((await p.readLog('log:4', 2)).entries.map((e) => e.seq)).toEqual([3, 4]);
    });

    it('refuses to publish after close', async () => {
      const p = await open(`${ns}closing:`);
      await p.close();
      await expect(p.publish('x', 'y')).rejects.toThrow();
      await p.close();
    });
  });
}

/** The EphemeralStore contract, run unchanged against every adapter. TTLs are real, so kept short. */
export function describeEphemeralStoreContract(name: string, factory: PortFactory<EphemeralStore>): void {
  describe(`EphemeralStore contract: ${name}`, () => {
    let opened: EphemeralStore[] = [];
    let ns: string;
    const open = async (namespace = ns) => {
      const s = await factory(namespace);
      opened.push(s);
      return s;
    };

    beforeEach(() => {
      ns = `es${uniqueToken()}:`;
    });
    afterEach(async () => {
      await Promise.all(opened.map((s) => s.close()));
      opened = [];
    });

    it('gets, sets, deletes and reads many keys at once', async () => {
      const s = await open();
      expect(await s.get('missing')).toBeNull();
      await s.set('a', '1');
      await s.mset({ b: '2', c: 'three' });
      expect(await s.get('a')).toBe('1');
      expect(await s.mget(['a', 'missing', 'c', 'b'])).toEqual(['1', null, 'three', '2']);
      expect(await s.mget([])).toEqual([]);
      await s.mset({});
      await s.del('a');
      await s.del('never-set');
      expect(await s.get('a')).toBeNull();
    });

    it('shares state between replicas and keeps namespaces apart', async () => {
      const a = await open();
      const b = await open();
      const other = await open(`${ns}other:`);
      await a.set('k', 'v');
      expect(await b.get('k')).toBe('v');
      expect(await other.get('k')).toBeNull();
    });

    it('expires keys after their TTL and reports the remaining lifetime', async () => {
      const s = await open();
      await s.set('short', 'x', 150);
      await s.set('forever', 'y');
      const left = await s.pttl('short');
      expect(left).toBeGreaterThan(50);
      expect(left).toBeLessThanOrEqual(150);
      expect(await s.pttl('forever')).toBe(-1);
      expect(await s.pttl('missing')).toBe(-2);
      await sleep(250);
      expect(await s.get('short')).toBeNull();
      expect(await s.pttl('short')).toBe(-2);
      expect(await s.mget(['short', 'forever'])).toEqual([null, 'y']);
    });

    it('clears a TTL when a key is set again without one, as mset does', async () => {
      const s = await open();
      await s.set('k', '1', 100);
      await s.set('k', '2');
      await s.set('m', '1', 100);
      await s.mset({ m: '2' });
      await sleep(200);
      expect(await s.mget(['k', 'm'])).toEqual(['2', '2']);
    });

    it('sets if absent: exactly one of many concurrent callers across replicas wins', async () => {
      const a = await open();
      const b = await open();
      const attempts = Array.from({ length: 30 }, (_, i) =>
        (i % 2 ? a : b).setIfAbsent('lock', `owner-${i}`, 1_000),
      );
      const results = await Promise.all(attempts);
      expect(results.filter(Boolean)).toHaveLength(1);
      const winner = results.indexOf(true);
      expect(await a.get('lock')).toBe(`owner-${winner}`);
      expect(await a.setIfAbsent('lock', 'late')).toBe(false);
    });

    it('sets if absent again once the previous value expired', async () => {
      const s = await open();
      expect(await s.setIfAbsent('once', '1', 100)).toBe(true);
      expect(await s.pttl('once')).toBeGreaterThan(0);
      await sleep(200);
      expect(await s.setIfAbsent('once', '2')).toBe(true);
      expect(await s.pttl('once')).toBe(-1);
    });

    it('increments atomically across replicas', async () => {
      const a = await open();
      const b = await open();
      const values = await Promise.all(
        Array.from({ length: 50 }, (_, i) => (i % 2 ? a : b).incr('counter', 5_000)),
      );
      expect([...values].sort((x, y) => x - y)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
      expect(await a.get('counter')).toBe('50');
    });

    it('sets the counter TTL on creation only, then starts over once it expired', async () => {
      const s = await open();
      expect(await s.incr('window', 300)).toBe(1);
      await sleep(150);
      expect(await s.incr('window', 300)).toBe(2);
      const left = await s.pttl('window');
      expect(left).toBeGreaterThan(0);
      expect(left).toBeLessThanOrEqual(160);
      await sleep(250);
      expect(await s.incr('window', 300)).toBe(1);
    });

    it('shares a token bucket across replicas: a burst, then one token per interval, refusals taking nothing', async () => {
      const a = await open();
      const b = await open();
      const waits = await Promise.all(
        Array.from({ length: 8 }, (_, i) => (i % 2 ? a : b).takeToken('bucket', 3, 400)),
      );
      expect(waits.filter((w) => w === 0)).toHaveLength(3);
      for (const w of waits.filter((x) => x > 0)) {
        expect(w).toBeGreaterThan(300);
        expect(w).toBeLessThanOrEqual(400);
      }
      // Another key is another bucket.
      expect(await a.takeToken('other', 3, 400)).toBe(0);
      // One token comes back per interval, not the burst; the refusals above did not push it further away.
      await sleep(450);
      expect(await b.takeToken('bucket', 3, 400)).toBe(0);
      expect(await a.takeToken('bucket', 3, 400)).toBeGreaterThan(0);
      // Left alone, the bucket fills up to its burst again, and its key goes.
      await sleep(1300);
      expect(await a.pttl('bucket')).toBe(-2);
      expect(await Promise.all([0, 1, 2, 3].map(() => a.takeToken('bucket', 3, 400)))).toEqual([
        0,
        0,
        0,
        expect.any(Number),
      ]);
    });

    it('refuses to increment a value that is not an integer', async () => {
      const s = await open();
      await s.set('word', 'abc');
      await expect(s.incr('word', 1_000)).rejects.toThrow();
    });

    it('tracks liveness set members: added once, refreshed, expired, removed', async () => {
      const a = await open();
      const b = await open();
      expect(await a.addMember('room:1:names', 'ada', 200)).toBe(true);
      expect(await b.addMember('room:1:names', 'ada', 200)).toBe(false);
      expect(await b.addMember('room:1:names', 'bob', 200)).toBe(true);
      expect((await a.members('room:1:names')).sort()).toEqual(['ada', 'bob']);

      // bob keeps refreshing, ada stops: ada lapses, and is then free to be taken again.
      await sleep(120);
      expect(await b.addMember('room:1:names', 'bob', 200)).toBe(false);
      await sleep(120);
      expect(await a.members('room:1:names')).toEqual(['bob']);
      expect(await b.addMember('room:1:names', 'ada', 200)).toBe(true);

      await a.removeMember('room:1:names', 'bob');
      await a.removeMember('room:1:names', 'nobody');
      expect(await a.members('room:1:names')).toEqual(['ada']);
      expect(await a.members('room:2:names')).toEqual([]);
    });

    it('lets exactly one replica claim a member at a time', async () => {
      const a = await open();
      const b = await open();
      const claims = await Promise.all(
        Array.from({ length: 20 }, (_, i) => (i % 2 ? a : b).addMember('names', 'same-name', 1_000)),
      );
      expect(claims.filter(Boolean)).toHaveLength(1);
    });

    it('forgets a whole liveness set once every member expired', async () => {
      const s = await open();
      await s.addMember('set', 'x', 100);
      expect(await s.pttl('set')).toBeGreaterThan(0);
      await sleep(200);
      expect(await s.members('set')).toEqual([]);
      expect(await s.pttl('set')).toBe(-2);
    });

    it('reports readiness until closed', async () => {
      const s = await open(`${ns}closing:`);
      await waitFor(() => s.isReady(), 'ready');
      await s.close();
      expect(s.isReady()).toBe(false);
      await s.close();
    });

    it('gives a seat to one holder at a time across replicas, and back to a holder presenting its token', async () => {
      const a = await open();
      const b = await open();
      await a.heartbeat('pa', 60_000);
      await b.heartbeat('pb', 60_000);
      const ada = { process: 'pa', token: 't1', data: 'Ada' };
      const results = await Promise.all([
        a.claimSeat('room', 'ada', ada),
        b.claimSeat('room', 'ada', { process: 'pb', token: 't2', data: 'ADA' }),
      ]);
      expect(results.filter((r) => r.taken === null)).toEqual([{ taken: null, resumed: false }]);
      const winner = results[0].taken === null ? ada : { process: 'pb', token: 't2', data: 'ADA' };
      expect(results.find((r) => r.taken !== null)).toEqual({ taken: winner });
      // Only a claim presenting the holder's token takes the seat over, from any process (a reconnect to another
      // replica); the old token then no longer releases it. With other data (here the name as typed) it is not a
      // resume: the room is told.
      expect(await b.claimSeat('room', 'ada', { process: 'pb', token: 't3', data: 'Ada' }, 'wrong')).toEqual({
        taken: winner,
      });
      expect(
        await b.claimSeat('room', 'ada', { process: 'pb', token: 't3', data: 'Ada' }, winner.token),
      ).toEqual({ taken: null, resumed: winner.data === 'Ada' });
      expect((await a.seats('room')).map((s) => s.holder)).toEqual([
        { process: 'pb', token: 't3', data: 'Ada' },
      ]);
      expect(await a.releaseSeat('room', 'ada', winner.token)).toBe(false);
      // The same holder back with its token and the same data: a resume.
      expect(await a.claimSeat('room', 'ada', { process: 'pa', token: 't4', data: 'Ada' }, 't3')).toEqual({
        taken: null,
        resumed: true,
      });
      expect(await a.releaseSeat('room', 'ada', 't3')).toBe(false);
      expect(await a.releaseSeat('room', 'ada', 't4')).toBe(true);
      expect(await a.seats('room')).toEqual([]);
      // A token of a seat already given up resumes nothing.
      expect(await b.claimSeat('room', 'ada', { process: 'pa', token: 't9', data: 'Ada' }, 't4')).toEqual({
        taken: null,
        resumed: false,
      });
    });

    it('frees the seats of a process that stopped heartbeating, reaping each once', async () => {
      const a = await open();
      const b = await open();
      await a.heartbeat('dying', 150);
      await b.heartbeat('living', 60_000);
      await a.heartbeat('dying "quoted"', 150);
      await a.claimSeat('room', 'ana', { process: 'dying', token: 'x', data: 'Ana' });
      await a.claimSeat('room', 'eva', { process: 'dying', token: 'w', data: 'Eva' });
      await a.claimSeat('room', 'quo', { process: 'dying "quoted"', token: 'q', data: '"Quo"' });
      await b.claimSeat('room', 'bo', { process: 'living', token: 'y', data: 'Bo' });
      expect((await b.seats('room')).map((s) => s.seat).sort()).toEqual(['ana', 'bo', 'eva', 'quo']);
      await sleep(300);
      expect((await b.seats('room')).map((s) => s.seat)).toEqual(['bo']);
      // One reaper frees every dead seat (two of one process, whose liveness is asked once); the next finds none.
      const reaped = await a.reapSeats('room');
      expect(await b.reapSeats('room')).toEqual([]);
      expect(reaped.sort((x, y) => x.seat.localeCompare(y.seat))).toEqual([
        { seat: 'ana', holder: { process: 'dying', token: 'x', data: 'Ana' } },
        { seat: 'eva', holder: { process: 'dying', token: 'w', data: 'Eva' } },
        { seat: 'quo', holder: { process: 'dying "quoted"', token: 'q', data: '"Quo"' } },
      ]);
      expect((await b.seats('room')).map((s) => s.seat)).toEqual(['bo']);
      expect(await b.claimSeat('room', 'ana', { process: 'living', token: 'z', data: 'ana' })).toEqual({
        taken: null,
        resumed: false,
      });
    });
  });
}
