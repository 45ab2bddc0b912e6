import { FreshReads } from './fresh-reads';

/** A loader whose loads settle when the test says, recording when each started. */
function loader() {
  const loads: { key: string; row: string; resolve(v: string): void; reject(e: Error): void }[] = [];
  let version = 0;
  // A load reads the row as it is when the load starts.
  const load = (key: string) =>
    new Promise<string>((resolve, reject) => {
      loads.push({ key, row: `${key}@${version}`, resolve, reject });
    });
  return {
    loads,
    reads: new FreshReads(load),
    /** Settles load i with the row it read. */
    settle: async (i: number) => {
      loads[i].resolve(loads[i].row);
      await new Promise((r) => setImmediate(r));
    },
    change: () => (version += 1),
  };
}

describe('FreshReads', () => {
  it('answers every read with a load started after it was asked for, sharing the next one among those waiting', async () => {
    const { loads, reads, settle, change } = loader();
    const first = reads.read('room');
    expect(loads).toHaveLength(1);
    // The room changes while the first load is on its way: reads asked for now must not get its answer.
    change();
    const waiting = [reads.read('room'), reads.read('room'), reads.read('room')];
    expect(loads).toHaveLength(1);
    await settle(0);
    // The next load started when the first settled, once for all three.
    expect(loads).toHaveLength(2);
    const late = reads.read('room');
    change();
    await settle(1);
    await expect(first).resolves.toBe('room@0');
    for (const w of waiting) await expect(w).resolves.toBe('room@1');
    // Asked for during the second load, after another change: the third load's answer.
    expect(loads).toHaveLength(3);
    await settle(2);
    await expect(late).resolves.toBe('room@2');
    expect(reads.size).toBe(0);
  });

  it('keeps keys apart, starts afresh once a key is settled, and forgets settled keys', async () => {
    const { loads, reads, settle } = loader();
    const a = reads.read('a');
    const b = reads.read('b');
    expect(loads.map((l) => l.key)).toEqual(['a', 'b']);
    await settle(0);
    await settle(1);
    await expect(a).resolves.toBe('a@0');
    await expect(b).resolves.toBe('b@0');
    expect(reads.size).toBe(0);
    void reads.read('a');
    expect(loads).toHaveLength(3);
  });

  it('passes a failed load to its readers only, and still runs the next', async () => {
    const { loads, reads, settle } = loader();
    const failing = reads.read('room');
    const waiting = reads.read('room');
    loads[0].reject(new Error('database away'));
    await expect(failing).rejects.toThrow('database away');
    await new Promise((r) => setImmediate(r));
    expect(loads).toHaveLength(2);
    await settle(1);
    await expect(waiting).resolves.toBe('room@0');
    expect(reads.size).toBe(0);
  });
});
