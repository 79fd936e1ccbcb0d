/**
 * Tells what an uploaded file is from its first bytes, before any decoder sees it (the server,
 * while the upload streams in) or before it is sent (the upload page, for a file whose type and
 * name are not on the usual list). Only real
 * audio containers pass; playlists and other files that point at other files (HLS/m3u,
 * ffconcat, SDP, DASH manifests, ...) are refused, because a decoder that follows them reads
 * files or URLs other than the upload.
 */

/** An ffmpeg demuxer name: decoding is forced to this demuxer, never guessed. */
export type AudioContainer =
  'wav' | 'mp3' | 'aac' | 'mov' | 'ogg' | 'flac' | 'matroska' | 'amr' | 'aiff' | 'caf';

/** The type a recording in each container is served with (a recorder's name for it may be anything). */
export const CONTAINER_TYPES: Record<AudioContainer, string> = {
  wav: 'audio/wav',
  mp3: 'audio/mpeg',
  aac: 'audio/aac',
  mov: 'audio/mp4',
  ogg: 'audio/ogg',
  flac: 'audio/flac',
  matroska: 'audio/webm',
  amr: 'audio/amr',
  aiff: 'audio/aiff',
  caf: 'audio/x-caf',
};

export type SniffResult =
  { ok: true; container: AudioContainer } | { ok: false; reason: 'playlist' | 'unknown' };

/** Enough to see past a typical ID3 tag with a small cover picture. */
export const SNIFF_BYTES = 64 * 1024;

const ascii = (b: Uint8Array, from: number, to: number) =>
  String.fromCharCode(...b.subarray(from, Math.min(to, b.length)));

// MPEG-1/2/2.5 audio, layers I-III: bitrates (kbit/s) by [version is MPEG-1][layer] and sample rates.
const BITRATES: Record<string, number[]> = {
  '1-1': [0, 32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448],
  '1-2': [0, 32, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 384],
  '1-3': [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320],
  '2-1': [0, 32, 48, 56, 64, 80, 96, 112, 128, 144, 160, 176, 192, 224, 256],
  '2-2': [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160],
  '2-3': [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160],
};
const RATES: Record<number, number[]> = {
  3: [44100, 48000, 32000],
  2: [22050, 24000, 16000],
  0: [11025, 12000, 8000],
};

/** Length in bytes of the MPEG audio frame whose header starts at `at`, or 0 when it is not one. */
export function mpegFrameLength(b: Uint8Array, at: number): number {
  if (at + 4 > b.length || b[at] !== 0xff || (b[at + 1] & 0xe0) !== 0xe0) return 0;
  const version = (b[at + 1] >> 3) & 3; // 3 = MPEG-1, 2 = MPEG-2, 0 = MPEG-2.5, 1 reserved
  const layerBits = (b[at + 1] >> 1) & 3; // 3 = layer I, 2 = II, 1 = III, 0 reserved (ADTS)
  const bitrateIndex = b[at + 2] >> 4;
  const rateIndex = (b[at + 2] >> 2) & 3;
  if (version === 1 || layerBits === 0 || bitrateIndex === 0 || bitrateIndex === 15 || rateIndex === 3)
    return 0;
  const layer = 4 - layerBits;
  const v1 = version === 3;
  const kbps = BITRATES[`${v1 ? 1 : 2}-${layer}`][bitrateIndex];
  const rate = RATES[version][rateIndex];
  const padding = (b[at + 2] >> 1) & 1;
  if (layer === 1) return (Math.floor((12 * kbps * 1000) / rate) + padding) * 4;
  const perFrame = layer === 3 && !v1 ? 72 : 144;
  return Math.floor((perFrame * kbps * 1000) / rate) + padding;
}

/** Two MPEG audio frames back to back (or one that runs to the end of what was read). */
function mpegAt(b: Uint8Array, at: number): boolean {
  const len = mpegFrameLength(b, at);
  if (!len) return false;
  if (at + len + 4 > b.length) return at + len >= b.length - 4 || b.length - at < 2 * len;
  return mpegFrameLength(b, at + len) > 0;
}

/** ADTS (raw AAC) frame header: 12-bit sync, layer 00, valid sampling index, sane length. */
function adtsAt(b: Uint8Array, at: number): boolean {
  if (at + 7 > b.length || b[at] !== 0xff || (b[at + 1] & 0xf6) !== 0xf0) return false;
  if (((b[at + 2] >> 2) & 0xf) > 12) return false;
  const len = ((b[at + 3] & 3) << 11) | (b[at + 4] << 3) | (b[at + 5] >> 5);
  if (len < 7) return false;
  if (at + len + 2 > b.length) return true;
  return b[at + len] === 0xff && (b[at + len + 1] & 0xf6) === 0xf0;
}

const MOV_BOXES = new Set(['ftyp', 'moov', 'mdat', 'wide', 'free', 'skip', 'pnot']);

/** Text formats that only name other files or streams. */
const INDIRECTION = [
  /^#EXT/i, // HLS / extended m3u
  /^ffconcat/i,
  /^\[playlist\]/i, // pls
  /^v=0\s/, // SDP session description
  /^<\?xml|^<(MPD|smil|playlist|asx|html)\b/i, // DASH, SMIL, XSPF, ASX
  /^(file|https?|rtmp|rtsp|rtp|udp|tcp|ftp|concat|subfile|data|crypto|pipe|tee|cache):/i,
  /^(\/|\.\.?\/|[A-Za-z]:\\)\S/, // a bare path, as in a plain m3u
];

export function sniffAudio(bytes: Uint8Array): SniffResult {
  const b = bytes;
  if (b.length >= 12) {
    const head4 = ascii(b, 0, 4);
    const at8 = ascii(b, 8, 12);
    if ((head4 === 'RIFF' || head4 === 'RF64' || head4 === 'BW64') && at8 === 'WAVE')
      return { ok: true, container: 'wav' };
    if (head4 === 'FORM' && (at8 === 'AIFF' || at8 === 'AIFC')) return { ok: true, container: 'aiff' };
    if (MOV_BOXES.has(ascii(b, 4, 8))) return { ok: true, container: 'mov' };
  }
  if (b.length >= 4) {
    const head4 = ascii(b, 0, 4);
    if (head4 === 'OggS') return { ok: true, container: 'ogg' };
    if (head4 === 'fLaC') return { ok: true, container: 'flac' };
    if (head4 === 'caff') return { ok: true, container: 'caf' };
    if (b[0] === 0x1a && b[1] === 0x45 && b[2] === 0xdf && b[3] === 0xa3)
      return { ok: true, container: 'matroska' };
  }
  if (ascii(b, 0, 6) === '#!AMR\n' || ascii(b, 0, 9) === '#!AMR-WB\n') return { ok: true, container: 'amr' };
  if (b.length >= 10 && ascii(b, 0, 3) === 'ID3') {
    // ID3v2 tag (size as four 7-bit bytes), then the audio it labels.
    const size = ((b[6] & 0x7f) << 21) | ((b[7] & 0x7f) << 14) | ((b[8] & 0x7f) << 7) | (b[9] & 0x7f);
    const footer = b[5] & 0x10 ? 10 : 0;
    const after = 10 + size + footer;
    if (after + 4 <= b.length) {
      const rest = sniffAudio(b.subarray(after));
      if (rest.ok) return rest;
      // Some encoders pad after the tag; MPEG frames may start a little later.
      for (let at = after; at < Math.min(b.length - 4, after + 4096); at++)
        if (mpegAt(b, at)) return { ok: true, container: 'mp3' };
      return rest;
    }
    return { ok: true, container: 'mp3' }; // the tag runs past what was read: MPEG audio is the norm
  }
  if (adtsAt(b, 0)) return { ok: true, container: 'aac' };
  if (mpegAt(b, 0)) return { ok: true, container: 'mp3' };
  const text = new TextDecoder('utf-8')
    .decode(b.subarray(0, 2048))
    .replace(/^\uFEFF/, '')
    .trimStart();
  if (INDIRECTION.some((re) => re.test(text))) return { ok: false, reason: 'playlist' };
  // Leading junk before MPEG frames (some recorders write a few zero bytes first).
  for (let at = 1; at < Math.min(b.length - 4, 4096); at++) {
    if (b[at] === 0xff && mpegAt(b, at)) return { ok: true, container: 'mp3' };
  }
  return { ok: false, reason: 'unknown' };
}
