/**
 * Splits long audio into chunks an engine can take, cutting in the quietest spot near each
 * boundary so words are not split in half.
 */
export interface PcmChunk {
  /** First sample of the chunk in the whole clip. */
  start: number;
  end: number;
}

export interface ChunkOptions {
  sampleRate: number;
  /** Longest chunk. */
  maxMs: number;
  /** How far back from maxMs to look for a quiet spot. */
  searchMs?: number;
  /** Window over which loudness is measured. */
  windowMs?: number;
}

function windowEnergy(pcm: Int16Array, from: number, len: number): number {
  let sum = 0;
  const end = Math.min(pcm.length, from + len);
  for (let i = from; i < end; i++) sum += pcm[i] * pcm[i];
  return sum / Math.max(1, end - from);
}

export function splitAtQuietPoints(pcm: Int16Array, opts: ChunkOptions): PcmChunk[] {
  const maxLen = Math.floor((opts.maxMs * opts.sampleRate) / 1000);
  const searchLen = Math.floor(((opts.searchMs ?? Math.min(8000, opts.maxMs / 3)) * opts.sampleRate) / 1000);
  const win = Math.max(1, Math.floor(((opts.windowMs ?? 100) * opts.sampleRate) / 1000));
  const chunks: PcmChunk[] = [];
  let start = 0;
  while (start < pcm.length) {
    if (pcm.length - start <= maxLen) {
      chunks.push({ start, end: pcm.length });
      break;
    }
    const limit = start + maxLen;
    let best = limit;
    let bestEnergy = Infinity;
    // Step by half a window from the latest allowed cut backwards; the quietest window wins.
    for (let at = limit - win; at >= limit - searchLen && at > start; at -= Math.max(1, win >> 1)) {
      const e = windowEnergy(pcm, at, win);
      if (e < bestEnergy) {
        bestEnergy = e;
        best = at + (win >> 1);
      }
    }
    chunks.push({ start, end: best });
    start = best;
  }
  return chunks;
}
