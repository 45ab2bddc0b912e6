import { describe, expect, it } from 'vitest';
import { SPANISH_LETTERS } from './spanish-letters';

describe('SPANISH_LETTERS', () => {
  it('has the 30 letters in order, including Ch, Ll, Ñ and RR', () => {
    expect(SPANISH_LETTERS.map((l) => l.letter).join(' ')).toBe(
      'A B C Ch D E F G H I J K L Ll M N Ñ O P Q R RR S T U V W X Y Z',
    );
  });

  it('gives every letter a spoken name and a pronunciation hint', () => {
    for (const l of SPANISH_LETTERS) {
      expect(l.name.trim()).not.toBe('');
      expect(l.hint.trim()).not.toBe('');
    }
  });
});
