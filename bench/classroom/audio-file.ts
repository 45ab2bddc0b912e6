/** The benchmark's audio file: deterministic bytes, so that every contender's answer can be checked. */
export function audioFile(bytes: number): Buffer {
  const audio = Buffer.alloc(bytes);
  for (let i = 0; i < bytes; i++) audio[i] = (i * 31 + (i >>> 8)) & 255;
  return audio;
}

/** `bytes=a-b` / `bytes=a-` / `bytes=-n` → [start, end] inside a file of `size` bytes; null for anything else. */
export function byteRange(header: string | undefined, size: number): [number, number] | null {
  const match = /^bytes=(\d*)-(\d*)$/.exec(header ?? '');
  if (!match || (match[1] === '' && match[2] === '')) return null;
  if (match[1] === '') return [Math.max(0, size - Number(match[2])), size - 1];
  const start = Number(match[1]);
  const end = match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1);
  return start <= end ? [start, end] : null;
}
