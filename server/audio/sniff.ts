/**
 * The server's side of container sniffing (core/audio-sniff.ts): the same rules, read from a
 * stored file.
 */
import fs from 'node:fs/promises';
import { SNIFF_BYTES, sniffAudio, type SniffResult } from '../../core/audio-sniff';

export {
  mpegFrameLength,
  SNIFF_BYTES,
  sniffAudio,
  type AudioContainer,
  type SniffResult,
} from '../../core/audio-sniff';

/** Sniffs the first bytes of a stored file. */
export async function sniffAudioFile(file: string): Promise<SniffResult> {
  const handle = await fs.open(file, 'r');
  try {
    const buf = Buffer.alloc(SNIFF_BYTES);
    const { bytesRead } = await handle.read(buf, 0, SNIFF_BYTES, 0);
    return sniffAudio(buf.subarray(0, bytesRead));
  } finally {
    await handle.close();
  }
}
