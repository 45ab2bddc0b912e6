/**
 * jsdom has no layout engine. ProseMirror (the rich-text editor's core) measures the caret to scroll it into view
 * and to map clicks to positions; give it the empty geometry a zero-size page would report. Each shim is only
 * installed where jsdom lacks the API, so a newer jsdom's own implementation wins.
 */
const emptyRect = (): DOMRect => new DOMRect(0, 0, 0, 0);

function emptyRectList(): DOMRectList {
  const list = {
    length: 0,
    item: () => null,
    [Symbol.iterator]: function* () {},
  };
  return list as unknown as DOMRectList;
}

export function installLayoutShims(): void {
  if (typeof Range !== 'undefined') {
    if (!Range.prototype.getClientRects) Range.prototype.getClientRects = emptyRectList;
    if (!Range.prototype.getBoundingClientRect) Range.prototype.getBoundingClientRect = emptyRect;
  }
  if (typeof document !== 'undefined' && !document.elementFromPoint) {
    document.elementFromPoint = () => null;
  }
}
