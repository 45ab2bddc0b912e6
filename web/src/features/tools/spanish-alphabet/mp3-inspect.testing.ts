// Test-only MPEG audio frame walker: checks a file is a well-formed MP3 and measures it without a decoder.

const BITRATES_V1_L3 = [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320];
const BITRATES_V2_L3 = [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160];
const SAMPLE_RATES: Record<number, number[]> = {
  3: [44100, 48000, 32000],
  2: [22050, 24000, 16000],
  0: [11025, 12000, 8000],
};

export interface Mp3Summary {
  /** Audio frames, not counting a leading Xing/Info header frame. */
  frames: number;
  sampleRate: number;
  mono: boolean;
  bitratesKbps: number[];
  durationSeconds: number;
}

function id3v2Length(bytes: Uint8Array): number {
  if (bytes[0] !== 0x49 || bytes[1] !== 0x44 || bytes[2] !== 0x33) return 0;
  const size =
    ((bytes[6] & 0x7f) << 21) | ((bytes[7] & 0x7f) << 14) | ((bytes[8] & 0x7f) << 7) | (bytes[9] & 0x7f);
  return 10 + size;
}

/** Walks frame by frame from the start; throws if anything between the tags is not a valid Layer III frame. */
export function inspectMp3(bytes: Uint8Array): Mp3Summary {
  let offset = id3v2Length(bytes);
  let end = bytes.length;
  if (
    end - offset >= 128 &&
    bytes[end - 128] === 0x54 &&
    bytes[end - 127] === 0x41 &&
    bytes[end - 126] === 0x47
  )
    end -= 128;
  let frames = 0;
  let samples = 0;
  let sampleRate = 0;
  let mono = true;
  const bitrates = new Set<number>();
  let first = true;
  while (offset < end) {
    if (end - offset < 4) throw new Error(`truncated frame header at ${offset}`);
    const [b0, b1, b2, b3] = bytes.subarray(offset, offset + 4);
    if (b0 !== 0xff || (b1 & 0xe0) !== 0xe0) throw new Error(`lost frame sync at byte ${offset}`);
    const version = (b1 >> 3) & 0x03;
    const layer = (b1 >> 1) & 0x03;
    if (version === 1) throw new Error('reserved MPEG version');
    if (layer !== 1) throw new Error('not Layer III');
    const bitrateIndex = b2 >> 4;
    const rateIndex = (b2 >> 2) & 0x03;
    if (bitrateIndex === 0 || bitrateIndex === 15 || rateIndex === 3)
      throw new Error(`bad frame header at ${offset}`);
    const kbps = (version === 3 ? BITRATES_V1_L3 : BITRATES_V2_L3)[bitrateIndex];
    const rate = SAMPLE_RATES[version][rateIndex];
    if (sampleRate && rate !== sampleRate) throw new Error('sample rate changes mid-file');
    sampleRate = rate;
    const padding = (b2 >> 1) & 0x01;
    const length = Math.floor(((version === 3 ? 144 : 72) * kbps * 1000) / rate) + padding;
    if (offset + length > end) throw new Error(`frame at ${offset} runs past the end`);
    const frame = bytes.subarray(offset, offset + length);
    const text = new TextDecoder('latin1').decode(frame.subarray(0, Math.min(64, frame.length)));
    const isInfoFrame = first && (text.includes('Xing') || text.includes('Info'));
    if (!isInfoFrame) {
      frames++;
      samples += version === 3 ? 1152 : 576;
      bitrates.add(kbps);
      mono &&= b3 >> 6 === 3;
    }
    first = false;
    offset += length;
  }
  if (frames === 0) throw new Error('no audio frames');
  return { frames, sampleRate, mono, bitratesKbps: [...bitrates], durationSeconds: samples / sampleRate };
}
