import { describeStatuses, failuresOtherThan503, isFailure, statusCounts, waitUntil } from './checks';

const records = (...statuses: number[]) => statuses.map((status) => ({ status }));

describe('fail closed with 503', () => {
  it('passes 2xx, 4xx and 503, and nothing else', () => {
    expect(failuresOtherThan503(statusCounts(records(201, 200, 503, 503, 409, 429)))).toEqual({});
  });

  it('fails on no answer at all (status 0), 500, 502 and 504', () => {
    for (const status of [0, 500, 502, 504]) {
      expect(failuresOtherThan503(statusCounts(records(201, 503, status)))).toEqual({ [String(status)]: 1 });
    }
    expect(failuresOtherThan503({ '0': 2, '200': 5, '502': 1, '503': 7, '504': 3 })).toEqual({
      '0': 2,
      '502': 1,
      '504': 3,
    });
  });

  it('counts a status 0 as a failure', () => {
    expect(isFailure({ status: 0 })).toBe(true);
    expect(isFailure({ status: 503 })).toBe(true);
    expect(isFailure({ status: 499 })).toBe(false);
  });

  it('says which failures there were', () => {
    expect(describeStatuses({ '0': 2, '502': 1 })).toBe('2 × no answer, 1 × 502');
    expect(describeStatuses({})).toBe('none');
  });
});

describe('waitUntil', () => {
  it('throws once the deadline passes for a condition that never holds', async () => {
    let clock = 0;
    let asked = 0;
    const waiting = waitUntil(
      'the gateway to have every replica in rotation',
      () => (asked++, false),
      30_000,
      {
        intervalMs: 100,
        now: () => clock,
        pause: async (ms) => void (clock += ms),
      },
    );
    await expect(waiting).rejects.toThrow(
      'timed out after 30000 ms waiting for the gateway to have every replica in rotation',
    );
    expect(asked).toBe(301);
  });

  it('returns how long it waited once the condition holds', async () => {
    let clock = 0;
    const ready = [false, false, true];
    await expect(
      waitUntil('ready', async () => ready.shift() ?? true, 1_000, {
        intervalMs: 50,
        now: () => clock,
        pause: async (ms) => void (clock += ms),
      }),
    ).resolves.toBe(100);
  });
});
