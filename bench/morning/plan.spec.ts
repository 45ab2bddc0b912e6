import {
  StepRecorder,
  arrivalOffsets,
  kneeVerdict,
  parseSteps,
  percentile,
  seededRandom,
  stepAt,
  summarise,
} from './plan';

describe('arrivalOffsets', () => {
  it('spaces an even step exactly, whatever earlier sessions do', () => {
    expect(arrivalOffsets(600, 1)).toEqual([0, 100, 200, 300, 400, 500, 600, 700, 800, 900]);
    expect(arrivalOffsets(200, 60)).toHaveLength(200);
    expect(arrivalOffsets(90, 60).at(-1)).toBeCloseTo(59_333.333, 2);
  });

  it('draws Poisson arrivals of the right mean, the same for the same seed', () => {
    const a = arrivalOffsets(1200, 600, 'poisson', seededRandom(7));
    const b = arrivalOffsets(1200, 600, 'poisson', seededRandom(7));
    expect(a).toEqual(b);
    // 12,000 expected; a Poisson count's standard deviation is ~110.
    expect(a.length).toBeGreaterThan(11_500);
    expect(a.length).toBeLessThan(12_500);
    expect(a.every((t, i) => t >= 0 && t < 600_000 && (i === 0 || t >= a[i - 1]))).toBe(true);
    expect(arrivalOffsets(1200, 600, 'poisson', seededRandom(8))).not.toEqual(a);
  });

  it('refuses a rate or a step of nothing', () => {
    expect(() => arrivalOffsets(0, 10)).toThrow('above 0');
    expect(() => arrivalOffsets(10, 0)).toThrow('more than 0 s');
  });
});

describe('parseSteps', () => {
  it('reads ascending positive rates', () => {
    expect(parseSteps('200, 400,600')).toEqual([200, 400, 600]);
  });
  it.each(['', '200,,400', '400,200', '0,100', 'x'])('refuses %p', (text) => {
    expect(() => parseSteps(text)).toThrow('--steps');
  });
});

describe('percentile', () => {
  const sorted = Array.from({ length: 100 }, (_, i) => i + 1);
  it('is the nearest rank', () => {
    expect(percentile(sorted, 50)).toBe(50);
    expect(percentile(sorted, 95)).toBe(95);
    expect(percentile(sorted, 99)).toBe(99);
    expect(percentile(sorted, 100)).toBe(100);
    expect(percentile([7], 99)).toBe(7);
    expect(percentile([1, 2, 3], 0)).toBe(1);
  });
  it('is NaN without values', () => {
    expect(percentile([], 50)).toBeNaN();
  });
});

describe('StepRecorder', () => {
  it('sums up each route apart, errors included', () => {
    const step = new StepRecorder(2);
    for (let i = 1; i <= 20; i++) step.time('GET /a', i);
    step.time('GET /b', 5);
    step.error('GET /b', 503, '200', 'unavailable');
    step.error('POST /c', 0, '201', 'ECONNRESET');
    expect(step.routes()).toEqual([
      { route: 'GET /a', count: 20, errors: 0, p50: 10, p95: 19, p99: 20, max: 20 },
      { route: 'GET /b', count: 1, errors: 1, p50: 5, p95: 5, p99: 5, max: 5 },
      summarise('POST /c', [], 1),
    ]);
    expect(step.errorCount()).toBe(2);
    expect(step.errors[0]).toEqual({
      step: 2,
      route: 'GET /b',
      status: 503,
      expected: '200',
      message: 'unavailable',
    });
  });
});

describe('kneeVerdict', () => {
  const route = (name: string, p95: number, errors = 0) => ({ ...summarise(name, [p95], errors), p95 });
  it('is not past the knee while every p95 is within the limit and nothing failed', () => {
    expect(kneeVerdict([route('GET /a', 300), route('GET /b', 12)], 300)).toEqual({
      past: false,
      reasons: [],
    });
  });
  it('is past it when a p95 passes the limit, or on any error', () => {
    expect(kneeVerdict([route('GET /a', 301)], 300).reasons).toEqual(['GET /a: p95 301 ms > 300 ms']);
    expect(kneeVerdict([route('GET /a', 3, 1)], 300).reasons).toEqual(['GET /a: 1 error(s)']);
  });
  it('holds exempt routes to errors only', () => {
    expect(kneeVerdict([route('WS echo', 900)], 300, ['WS echo']).past).toBe(false);
    expect(kneeVerdict([route('WS echo', 900, 2)], 300, ['WS echo']).past).toBe(true);
  });
});

describe('stepAt', () => {
  it('puts a request in the step it started in, the drain in the last', () => {
    const starts = [1000, 2000, 3000];
    expect(stepAt(starts, 1000)).toBe(0);
    expect(stepAt(starts, 2999)).toBe(1);
    expect(stepAt(starts, 99_999)).toBe(2);
  });
});
