// @vitest-environment node
import { existsSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { DEMO_QUIZ_SOUNDS } from './demo-sounds';

const publicDir = fileURLToPath(new URL('../../../../public', import.meta.url));

describe('the sound demo’s quiz recordings', () => {
  it('are exactly the ones shipped in web/public/sounds/quiz', () => {
    for (const s of DEMO_QUIZ_SOUNDS) expect(existsSync(`${publicDir}${s.src}`)).toBe(true);
    expect(readdirSync(`${publicDir}/sounds/quiz`).sort()).toEqual(
      DEMO_QUIZ_SOUNDS.map((s) => s.src.split('/').at(-1)).sort(),
    );
  });
});
