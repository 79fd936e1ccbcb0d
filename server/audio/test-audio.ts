import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { ffmpegPath } from './decode';

const require = createRequire(import.meta.url);

/**
 * The ffmpeg bundled with the npm package: it carries encoders Debian's build lacks (AMR-NB and
 * AMR-WB, what Android call recorders write), so tests can make such recordings.
 */
export function bundledFfmpegPath(): string {
  return (require('@ffmpeg-installer/ffmpeg') as { path: string }).path;
}

/**
 * Test and benchmark helper: converts a fixture with ffmpeg into another container/codec
 * (`opts.ffmpeg` picks another ffmpeg, e.g. bundledFfmpegPath() for AMR).
 */
export function convertAudio(
  input: string,
  output: string,
  args: string[],
  opts: { ffmpeg?: string } = {},
): string {
  fs.mkdirSync(path.dirname(output), { recursive: true });
  execFileSync(opts.ffmpeg ?? ffmpegPath(), [
    '-hide_banner',
    '-loglevel',
    'error',
    '-y',
    '-i',
    input,
    ...args,
    output,
  ]);
  return output;
}

/** Joins clips with a pause between them into one 16 kHz mono WAV. */
export function concatAudio(inputs: string[], output: string, pauseSec = 1): string {
  const args: string[] = ['-hide_banner', '-loglevel', 'error', '-y'];
  for (const i of inputs) args.push('-i', i);
  const parts = inputs
    .map(
      (_, i) =>
        `[${i}:a]aresample=16000,aformat=channel_layouts=mono,apad=pad_len=${Math.round(pauseSec * 16000)}[a${i}]`,
    )
    .join(';');
  const labels = inputs.map((_, i) => `[a${i}]`).join('');
  args.push('-filter_complex', `${parts};${labels}concat=n=${inputs.length}:v=0:a=1[out]`, '-map', '[out]');
  args.push('-ar', '16000', '-ac', '1', '-c:a', 'pcm_s16le', output);
  fs.mkdirSync(path.dirname(output), { recursive: true });
  execFileSync(ffmpegPath(), args);
  return output;
}

/** A security probe's payload: an HLS playlist saved as .mp3 that names a local recording. */
export function playlistPointingAt(file: string): Buffer {
  return Buffer.from(`#EXTM3U\n#EXT-X-TARGETDURATION:104\n#EXTINF:104.0,\n${file}\n#EXT-X-ENDLIST\n`);
}
