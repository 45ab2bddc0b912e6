// @vitest-environment node
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { inspectMp3 } from './mp3-inspect.testing';
import { letterAudioUrl, letterFileStem, SPANISH_LETTERS } from './spanish-letters';

const soundsDir = fileURLToPath(new URL('../../../../public/sounds/spanish/', import.meta.url));

describe('Spanish alphabet recordings (web/public/sounds/spanish)', () => {
  it('has exactly one file per letter, named by the lower-case letter', () => {
    const expected = SPANISH_LETTERS.map((l) => `${letterFileStem(l.letter)}.mp3`).sort();
    const present = readdirSync(soundsDir)
      .map((f) => f.normalize('NFC'))
      .sort();
    expect(present).toEqual(expected);
    expect(expected).toEqual(expect.arrayContaining(['ch.mp3', 'll.mp3', 'ñ.mp3', 'rr.mp3']));
  });

  it.each(SPANISH_LETTERS.map((l) => [l.letter, letterFileStem(l.letter)]))(
    '%s is a small mono MP3 of plausible length',
    (_letter, stem) => {
      const path = `${soundsDir}${stem}.mp3`;
      expect(statSync(path).size).toBeLessThan(30 * 1024);
      const mp3 = inspectMp3(new Uint8Array(readFileSync(path)));
      expect(mp3.mono).toBe(true);
      expect(mp3.durationSeconds).toBeGreaterThan(0.2);
      expect(mp3.durationSeconds).toBeLessThan(3);
    },
  );

  it('builds percent-encoded URLs for the player', () => {
    expect(letterAudioUrl('Ñ')).toBe('/sounds/spanish/%C3%B1.mp3');
    expect(letterAudioUrl('RR')).toBe('/sounds/spanish/rr.mp3');
    expect(letterAudioUrl('Ch')).toBe('/sounds/spanish/ch.mp3');
  });
});

describe('inspectMp3', () => {
  it('rejects bytes that are not MPEG audio', () => {
    expect(() => inspectMp3(new TextEncoder().encode('<!doctype html><html></html>'))).toThrow(/sync/);
    const good = new Uint8Array(readFileSync(`${soundsDir}a.mp3`));
    expect(() => inspectMp3(good.subarray(0, good.length - 10))).toThrow(/past the end/);
  });
});
