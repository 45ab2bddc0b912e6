/** A letter card: what is shown, its Spanish name (what is spoken) and a hint for English speakers. */
export interface SpanishLetter {
  letter: string;
  name: string;
  hint: string;
}

/** The 30 letters of the traditional Spanish alphabet, Ch, Ll, Ñ and RR included, in teaching order. */
export const SPANISH_LETTERS: readonly SpanishLetter[] = [
  { letter: 'A', name: 'a', hint: 'ah, like the "a" in "father"' },
  { letter: 'B', name: 'be', hint: 'beh, like "b" in "boy", softer between vowels' },
  { letter: 'C', name: 'ce', hint: 'theh in Spain, seh in Latin America; "k" before a, o, u' },
  { letter: 'Ch', name: 'che', hint: 'cheh, like "ch" in "church"' },
  { letter: 'D', name: 'de', hint: 'deh; between vowels it softens toward "th" in "this"' },
  { letter: 'E', name: 'e', hint: 'eh, like the "e" in "bet"' },
  { letter: 'F', name: 'efe', hint: 'EH-feh, like "f" in "fun"' },
  { letter: 'G', name: 'ge', hint: 'heh; a hard "g" as in "go" before a, o, u' },
  { letter: 'H', name: 'hache', hint: 'AH-cheh; the letter itself is always silent' },
  { letter: 'I', name: 'i', hint: 'ee, like the "ee" in "see"' },
  { letter: 'J', name: 'jota', hint: 'HOH-tah; a strong "h" from the back of the throat' },
  { letter: 'K', name: 'ka', hint: 'kah, like "k" in "kite"' },
  { letter: 'L', name: 'ele', hint: 'EH-leh, like "l" in "love"' },
  { letter: 'Ll', name: 'elle', hint: 'EH-yeh; sounds like the "y" in "yes"' },
  { letter: 'M', name: 'eme', hint: 'EH-meh, like "m" in "mom"' },
  { letter: 'N', name: 'ene', hint: 'EH-neh, like "n" in "no"' },
  { letter: 'Ñ', name: 'eñe', hint: 'EH-nyeh, like the "ny" in "canyon"' },
  { letter: 'O', name: 'o', hint: 'oh, short and pure, like "o" in "no"' },
  { letter: 'P', name: 'pe', hint: 'peh, without the puff of air of English "p"' },
  { letter: 'Q', name: 'cu', hint: 'koo; always written "qu" and sounds like "k"' },
  { letter: 'R', name: 'ere', hint: 'EH-reh; one quick tap, like "tt" in American "butter"' },
  { letter: 'RR', name: 'erre', hint: 'EH-rreh; a strong rolled (trilled) r' },
  { letter: 'S', name: 'ese', hint: 'EH-seh, like "s" in "sun"' },
  { letter: 'T', name: 'te', hint: 'teh, with the tongue touching the teeth' },
  { letter: 'U', name: 'u', hint: 'oo, like the "oo" in "moon"' },
  { letter: 'V', name: 'uve', hint: 'OO-beh; sounds like a soft "b"' },
  { letter: 'W', name: 'uve doble', hint: 'OO-beh DOH-bleh; found in borrowed words' },
  { letter: 'X', name: 'equis', hint: 'EH-kees; "ks" as in "taxi"' },
  { letter: 'Y', name: 'ye', hint: 'yeh, like "y" in "yes"; also called "i griega"' },
  { letter: 'Z', name: 'zeta', hint: 'THEH-tah in Spain, SEH-tah in Latin America' },
];

/** File stem of a letter's recording: the letter in lower case (spec section 7), e.g. "ch", "ñ", "rr". */
export function letterFileStem(letter: string): string {
  return letter.normalize('NFC').toLocaleLowerCase('es');
}

/** Spec section 7: /sounds/spanish/{letter in lowercase}.mp3, percent-encoded so "ñ" travels safely. */
export function letterAudioUrl(letter: string): string {
  return `/sounds/spanish/${encodeURIComponent(letterFileStem(letter))}.mp3`;
}
