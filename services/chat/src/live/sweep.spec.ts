import { Sweep } from './sweep';

describe('Sweep', () => {
  it('visits every slot exactly once a period, a slice a second', () => {
    const sweep = new Sweep(30_000);
    expect(sweep.slices).toBe(30);
    expect(sweep.tickMs).toBe(1000);
    const slots = Array.from({ length: 10_000 }, (_, i) => i);
    for (let period = 0; period < 3; period++) {
      const visits = new Map<number, number>();
      const perTurn: number[] = [];
      for (let t = 0; t < sweep.slices; t++) {
        const due = sweep.next();
        const visited = slots.filter(due);
        perTurn.push(visited.length);
        for (const s of visited) visits.set(s, (visits.get(s) ?? 0) + 1);
      }
      expect(visits.size).toBe(slots.length);
      expect([...visits.values()].every((n) => n === 1)).toBe(true);
      // Spread evenly: no turn carries more than its share (rounded up).
      expect(Math.max(...perTurn)).toBe(Math.ceil(slots.length / sweep.slices));
    }
  });

  it('keeps one turn for short periods and at most 30 for long ones', () => {
    expect(new Sweep(200)).toMatchObject({ slices: 1, tickMs: 200 });
    expect(new Sweep(1_999)).toMatchObject({ slices: 1, tickMs: 1_999 });
    expect(new Sweep(5_000)).toMatchObject({ slices: 5, tickMs: 1000 });
    expect(new Sweep(3_600_000)).toMatchObject({ slices: 30, tickMs: 120_000 });
    const one = new Sweep(500);
    expect([0, 1, 7].every(one.next())).toBe(true);
  });
});
