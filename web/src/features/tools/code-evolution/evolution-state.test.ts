import { describe, expect, it } from 'vitest';
import { SAMPLE_STEPS, STEP_MS } from './evolution-samples';
import {
  addedLines,
  evolutionReducer,
  initialEvolutionState,
  type EvolutionAction,
  type EvolutionState,
} from './evolution-state';

const run = (state: EvolutionState, ...actions: EvolutionAction[]) => actions.reduce(evolutionReducer, state);
const start = initialEvolutionState(SAMPLE_STEPS);

describe('evolutionReducer', () => {
  it('has 5 sample states, starts stopped on the first, and steps every 2 s', () => {
    expect(SAMPLE_STEPS).toHaveLength(5);
    expect(STEP_MS).toBe(2000);
    expect(start).toMatchObject({ index: 0, status: 'stopped' });
  });

  it('advances one state per tick while playing and stops at the last', () => {
    let s = run(start, { type: 'play' }, { type: 'tick' });
    expect(s).toMatchObject({ index: 1, status: 'playing' });
    s = run(s, { type: 'tick' }, { type: 'tick' }, { type: 'tick' });
    expect(s).toMatchObject({ index: 4, status: 'stopped' });
    expect(run(s, { type: 'tick' })).toMatchObject({ index: 4, status: 'stopped' });
  });

  it('pauses and resumes where it was', () => {
    const paused = run(start, { type: 'play' }, { type: 'tick' }, { type: 'pause' });
    expect(paused).toMatchObject({ index: 1, status: 'paused' });
    expect(run(paused, { type: 'tick' })).toBe(paused);
    expect(run(paused, { type: 'play' }, { type: 'tick' })).toMatchObject({ index: 2, status: 'playing' });
  });

  it('Reset returns to the first state, stopped', () => {
    expect(run(start, { type: 'play' }, { type: 'tick' }, { type: 'tick' }, { type: 'reset' })).toMatchObject(
      {
        index: 0,
        status: 'stopped',
      },
    );
  });

  it('playing from the last state starts over', () => {
    const atEnd = run(start, { type: 'select', index: 4 });
    expect(run(atEnd, { type: 'play' })).toMatchObject({ index: 0, status: 'playing' });
  });

  it('adds custom code as a new last step only when it is not blank', () => {
    expect(run(start, { type: 'addCustom', code: '  \n ' })).toBe(start);
    const s = run(start, { type: 'addCustom', code: 'let x = 1;\n' });
    expect(s.steps).toHaveLength(6);
    expect(s.steps[5]).toMatchObject({ title: 'Custom step 1', code: 'let x = 1;' });
    expect(s.index).toBe(5);
  });
});

describe('addedLines', () => {
  it('marks the lines a step added', () => {
    expect([...addedLines('a\nb\nc', 'a\nx\nb\nc\ny')]).toEqual([1, 4]);
    expect([...addedLines('', 'one')]).toEqual([0]);
    expect(addedLines('same', 'same').size).toBe(0);
  });

  it('highlights the new function wrapper in the second sample', () => {
    const added = addedLines(SAMPLE_STEPS[0].code, SAMPLE_STEPS[1].code);
    const lines = SAMPLE_STEPS[1].code.split('\n');
    expect([...added].map((i) => lines[i])).toEqual([
      'function greet() {',
      "  console.log('¡Hola, mundo!');",
      '}',
      '',
      'greet();',
    ]);
  });
});
