import fc from 'fast-check';
import { ChatLiveMessages } from '@district/contracts';
import { chatNameKey, normaliseChatName } from './chat-name-normaliser';
import { checkChatName } from './chat-names';

/** The look-alikes of "Sam" (issue #34 item 3): each displays as "Sam" beside it. */
const LOOK_ALIKES = [
  'S\u00ADam', // soft hyphen
  'Sam\u034F', // combining grapheme joiner
  '\u0405\u0430m', // Cyrillic Dze and a
  'Sam\u3164', // Hangul filler
  '\u3164Sam',
  'S\u061Cam', // Arabic letter mark
  'Sa\u200Bm', // zero-width space
  'S\u200Dam\u2066', // zero-width joiner, a bidi isolate
  'ＳＡＭ', // full width, upper case
  ' Sam  ',
  'Sarn', // "rn" is drawn as "m"
  '\u0053\u0430\u006D', // Latin S, Cyrillic a
];

describe('chat names', () => {
  it('gives every look-alike of a name the same key, so the second is "already taken"', () => {
    const sam = checkChatName('Sam');
    expect(sam).toEqual({ ok: true, display: 'Sam', seat: expect.any(String) });
    for (const alike of LOOK_ALIKES) {
      const check = checkChatName(alike);
      expect({ alike, check }).toEqual({
        alike,
        check: expect.objectContaining({ ok: true, seat: sam.ok && sam.seat }),
      });
    }
    // What invisible characters were is gone from the name shown.
    for (const alike of LOOK_ALIKES.filter((n) =>
      /^[\s\p{Cf}\p{Default_Ignorable_Code_Point}Sam]+$/u.test(n),
    ))
      expect(checkChatName(alike)).toMatchObject({ display: 'Sam' });
    // l, I and 1 are one glyph in many fonts; case is no difference either, nor a Cyrillic capital.
    expect(new Set(['Al', 'AI', 'A1', 'al', 'AL'].map(chatNameKey)).size).toBe(1);
    expect(new Set(['Maria', 'MARIA', '\u041C\u0430ria', 'maria'].map(chatNameKey)).size).toBe(1);
    expect(new Set(['Lucía', 'LUCÍA', 'lucía'].map(chatNameKey)).size).toBe(1);
  });

  it('keeps names that look different apart', () => {
    const keys = ['Sam', 'Sami', 'José', 'Jose', 'Ana María', 'Ana Maria', 'Zoë', 'Zoe', 'Bo', 'Bob'].map(
      (n) => {
        const check = checkChatName(n);
        return check.ok ? check.seat : n;
      },
    );
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('refuses names that are empty once normalised, hold what no name needs, or are too long', () => {
    for (const empty of [
      '',
      '   ',
      '\u3164',
      '\u00AD\u034F',
      '\u200B\u200D\u2060',
      '\u061C \u3164 \uFEFF',
      '\u202E',
      42,
      null,
    ])
      expect(checkChatName(empty)).toEqual({ ok: false, text: ChatLiveMessages.enterName });
    for (const bad of ['a\u0000b', 'a\u0007', 'Sam\uE000', 'x\uD800y'])
      expect(checkChatName(bad)).toEqual({ ok: false, text: ChatLiveMessages.enterName });
    expect(checkChatName('x'.repeat(51))).toEqual({ ok: false, text: ChatLiveMessages.nameTooLong });
    expect(checkChatName('\u00AD'.repeat(5000))).toEqual({ ok: false, text: ChatLiveMessages.nameTooLong });
    // Invisible characters do not count towards the length.
    expect(checkChatName(`${'é'.repeat(50)}\u00AD\u034F`)).toMatchObject({
      ok: true,
      display: 'é'.repeat(50),
    });
    // Tabs and new lines are white space, collapsed like any other.
    expect(checkChatName('Ana\t\n María')).toMatchObject({ ok: true, display: 'Ana María' });
  });

  it('normalises idempotently: a name shown normalises to itself, with the same key', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme-composite', maxLength: 30 }), (raw) => {
        const shown = normaliseChatName(raw);
        if (shown === null) return;
        expect(normaliseChatName(shown)).toBe(shown);
        expect(chatNameKey(shown)).toBe(chatNameKey(normaliseChatName(shown) ?? ''));
      }),
      { numRuns: 2000, seed: 34 },
    );
  });
});
