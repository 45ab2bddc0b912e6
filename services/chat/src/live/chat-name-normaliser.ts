import unhomoglyph from 'unhomoglyph';

/**
 * Characters that show nothing (or nothing a reader can see) and so let one name pose as another: Unicode's
 * default-ignorable code points (soft hyphen, combining grapheme joiner, Hangul fillers, variation selectors…)
 * and format characters (bidirectional marks and overrides, zero-width joiners, Arabic letter mark…).
 */
const INVISIBLE = /[\p{Default_Ignorable_Code_Point}\p{Cf}]/gu;
/** What is left that no name needs: controls, private-use, lone surrogates, unassigned code points. */
const UNSHOWABLE = /[\p{Cc}\p{Co}\p{Cs}\p{Cn}]/u;
/** Past this many UTF-16 units a name is refused before any normalising work (a frame may carry 64 KB). */
export const RAW_NAME_MAX_UNITS = 1000;

/**
 * A chat name as shown: NFKC (full-width and compatibility forms to their plain letters), invisible characters
 * taken out (and NFKC again, as taking one out can leave letters and marks to compose), every run of white space
 * one space, trimmed. Null when what is left cannot be shown as a name (a control, a private-use character…);
 * '' when nothing is left. Idempotent: a shown name normalises to itself.
 */
export function normaliseChatName(raw: string): string | null {
  const shown = raw.normalize('NFKC').replace(INVISIBLE, '').normalize('NFKC').replace(/\s+/gu, ' ').trim();
  return UNSHOWABLE.test(shown) ? null : shown;
}

/** UTS #39 skeleton: NFD, each character to its prototype in Unicode's confusables.txt, NFD again. */
function skeleton(text: string): string {
  return unhomoglyph(text.normalize('NFD')).normalize('NFD');
}

/**
 * What two names are compared by ("already taken"): the UTS #39 skeleton, without case, so names that display
 * alike are one name ("Sam", "SAM", Cyrillic "Ѕаm", "Sarn"; "Маria" with a Cyrillic capital; "Al", "AI", "A1")
 * while names that look different stay apart ("José" and "Jose"). Skeletons are case-sensitive and case is
 * dropped in steps that keep both: skeleton, upper case, skeleton (capitals that pose as Latin ones meet them),
 * lower case, skeleton. The price: i and l become one letter too ("Eli" and "Ell" clash), a name refused that
 * a pupil changes, where the other way round one pupil could pass as another.
 */
export function chatNameKey(shown: string): string {
  return skeleton(skeleton(skeleton(shown).toUpperCase()).toLowerCase());
}
