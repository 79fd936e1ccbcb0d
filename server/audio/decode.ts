import { execFile, spawnSync } from 'node:child_process';
import { spawnTied } from '../child-process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { PermanentJobError } from '../jobs/queue';
import { sniffAudioFile, type AudioContainer } from './sniff';
import { concatPcm, PCM_SAMPLE_RATE } from './wav';

const require = createRequire(import.meta.url);

/** A file ffmpeg cannot read as audio: retrying will not help. */
export class AudioDecodeError extends PermanentJobError {}

export const UNREADABLE_AUDIO_MESSAGE =
  'This file could not be read as audio. It may be damaged or not a recording; please upload the original file.';

export const PLAYLIST_MESSAGE =
  'This file is a playlist or a link to other files, not a recording. Please upload the audio file itself.';

let cachedFfmpeg: { path: string; version: string } | undefined;

/**
 * FFMPEG_PATH, then the system's ffmpeg (Debian's package gets security updates), then the
 * static binary bundled by @ffmpeg-installer (a 2018 build, kept as the fallback for machines
 * without a system ffmpeg).
 */
function ffmpegCandidates(): string[] {
  const candidates: string[] = [];
  if (process.env.FFMPEG_PATH) candidates.push(process.env.FFMPEG_PATH);
  candidates.push('ffmpeg');
  try {
    candidates.push((require('@ffmpeg-installer/ffmpeg') as { path: string }).path);
  } catch {
    // not installed for this platform
  }
  return candidates;
}

const FFMPEG_MISSING =
  'ffmpeg is missing: install ffmpeg (npm run setup) or run npm install (it bundles one)';
const versionOf = (stdout: string) => /ffmpeg version (\S+)/.exec(stdout)?.[1] ?? 'unknown';

/** The ffmpeg to use, found synchronously (tests and scripts; the server uses findFfmpeg). */
export function ffmpegInfo(): { path: string; version: string } {
  if (cachedFfmpeg) return cachedFfmpeg;
  for (const c of ffmpegCandidates()) {
    const probe = spawnSync(c, ['-hide_banner', '-version'], { encoding: 'utf8', timeout: 10_000 });
    if (!probe.error && probe.status === 0) {
      cachedFfmpeg = { path: c, version: versionOf(probe.stdout) };
      return cachedFfmpeg;
    }
  }
  throw new Error(FFMPEG_MISSING);
}

/**
 * The same search without blocking: probing each candidate takes a process start (hundreds of
 * milliseconds on a busy machine), which on the request thread would stall every request and
 * live call while the first recording is decoded.
 */
export async function findFfmpeg(): Promise<{ path: string; version: string }> {
  if (cachedFfmpeg) return cachedFfmpeg;
  for (const c of ffmpegCandidates()) {
    const stdout = await new Promise<string | null>((resolve) => {
      execFile(c, ['-hide_banner', '-version'], { encoding: 'utf8', timeout: 10_000 }, (err, out) =>
        resolve(err ? null : out),
      );
    });
    if (stdout !== null) {
      cachedFfmpeg ??= { path: c, version: versionOf(stdout) };
      return cachedFfmpeg;
    }
  }
  throw new Error(FFMPEG_MISSING);
}

export function ffmpegPath(): string {
  return ffmpegInfo().path;
}

/** Longest recording decoded (env MAX_AUDIO_MINUTES); longer ones are refused. */
export const DEFAULT_MAX_AUDIO_MINUTES = 120;

export class AudioTooLongError extends AudioDecodeError {}

export function tooLongMessage(maxMinutes: number, durationMs?: number | null): string {
  const len = durationMs ? `This recording is ${Math.round(durationMs / 60_000)} minutes long; ` : '';
  return `${len}recordings up to ${maxMinutes} minutes can be analysed. Please upload a shorter recording (for example, one appointment).`;
}

/**
 * The only way ffmpeg is pointed at an upload: the container is sniffed from the bytes and
 * forced with -f (no guessing, so no playlist or concat demuxer can be chosen), only the
 * file protocol is allowed, and the path is an absolute file: URL. Playlists and anything
 * that is not a known audio container are refused before ffmpeg runs.
 */
export async function safeInputArgs(file: string): Promise<string[]> {
  let sniffed;
  try {
    sniffed = await sniffAudioFile(file);
  } catch {
    throw new AudioDecodeError(UNREADABLE_AUDIO_MESSAGE);
  }
  if (!sniffed.ok) {
    throw new AudioDecodeError(sniffed.reason === 'playlist' ? PLAYLIST_MESSAGE : UNREADABLE_AUDIO_MESSAGE);
  }
  return inputArgs(sniffed.container, file);
}

export function inputArgs(container: AudioContainer, file: string): string[] {
  return [
    '-protocol_whitelist',
    'file',
    // MP4/MOV data references can name other files; never follow them.
    ...(container === 'mov' ? ['-enable_drefs', '0'] : []),
    '-f',
    container,
    '-i',
    `file:${path.resolve(file)}`,
  ];
}

export interface AudioProbe {
  /** Channels of the first audio stream. */
  channels: number;
  sampleRate: number;
  codec: string;
  /** From the container header; may be absent (streams without a duration). */
  durationMs: number | null;
}

/** Reads the container header with `ffmpeg -i` (there is no ffprobe in the bundle). */
export async function probeAudio(file: string): Promise<AudioProbe> {
  const input = await safeInputArgs(file);
  const ffmpeg = (await findFfmpeg()).path;
  const stderr = await new Promise<string>((resolve, reject) => {
    const child = spawnTied(ffmpeg, ['-hide_banner', '-nostdin', ...input], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let text = '';
    child.stderr.on('data', (b: Buffer) => {
      if (text.length < 64_000) text += b.toString();
    });
    child.on('error', reject);
    child.on('close', () => resolve(text));
  });
  return parseProbe(stderr);
}

export function parseProbe(stderr: string): AudioProbe {
  const stream = /Stream #\d+:\d+.*?: Audio: ([^,\s]+)[^,]*, (\d+) Hz, ([^,]+),/.exec(stderr);
  if (!stream) throw new AudioDecodeError(UNREADABLE_AUDIO_MESSAGE);
  const layout = stream[3].trim();
  const channelsMatch = /(\d+) channels/.exec(layout);
  const channels =
    layout === 'mono' ? 1 : layout.startsWith('stereo') ? 2 : channelsMatch ? Number(channelsMatch[1]) : 2;
  const d = /Duration: (\d+):(\d+):(\d+(?:\.\d+)?)/.exec(stderr);
  const durationMs = d ? Math.round((Number(d[1]) * 3600 + Number(d[2]) * 60 + Number(d[3])) * 1000) : null;
  return { codec: stream[1], sampleRate: Number(stream[2]), channels, durationMs };
}

export interface DecodeOptions {
  /** 'mix' = one mono channel; 'split' = left and right kept apart (stereo attribution). */
  channels?: 'mix' | 'split';
  /** Samples per channel in each yielded block. */
  blockSamples?: number;
  signal?: AbortSignal;
  /**
   * Longest audio decoded, in seconds. ffmpeg stops just past it and the decode fails with
   * AudioTooLongError, so a file whose header hides its length still costs bounded work.
   */
  maxSeconds?: number;
}

export interface PcmBlock {
  /** One Int16Array per output channel (1 for 'mix', 2 for 'split'), 16 kHz. */
  channels: Int16Array[];
}

/**
 * Decodes any audio ffmpeg understands to 16 kHz Int16 PCM, yielded in blocks so memory stays
 * flat however long the recording is. Throws AudioDecodeError when the file is not audio.
 */
export async function* decodePcm(file: string, opts: DecodeOptions = {}): AsyncGenerator<PcmBlock> {
  const outChannels = opts.channels === 'split' ? 2 : 1;
  const blockSamples = opts.blockSamples ?? PCM_SAMPLE_RATE * 10;
  const blockBytes = blockSamples * 2 * outChannels;
  const input = await safeInputArgs(file);
  const maxSamples = opts.maxSeconds ? Math.round(opts.maxSeconds * PCM_SAMPLE_RATE) : Infinity;
  const ffmpeg = (await findFfmpeg()).path;
  const child = spawnTied(
    ffmpeg,
    [
      '-hide_banner',
      '-nostdin',
      '-loglevel',
      'error',
      ...input,
      ...(opts.maxSeconds ? ['-t', String(Math.ceil(opts.maxSeconds) + 1)] : []),
      '-vn',
      '-map',
      '0:a:0',
      '-ac',
      String(outChannels),
      '-ar',
      String(PCM_SAMPLE_RATE),
      '-f',
      's16le',
      '-acodec',
      'pcm_s16le',
      'pipe:1',
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let stderr = '';
  child.stderr.on('data', (b: Buffer) => {
    if (stderr.length < 8000) stderr += b.toString();
  });
  const exited = new Promise<number | null>((resolve) => {
    child.on('close', (code) => resolve(code));
    child.on('error', () => resolve(-1));
  });
  const onAbort = () => child.kill('SIGKILL');
  opts.signal?.addEventListener('abort', onAbort, { once: true });

  const toBlock = (bytes: Buffer): PcmBlock => {
    const copy = Buffer.from(bytes); // aligned, owned memory
    const all = new Int16Array(copy.buffer, copy.byteOffset, copy.length >> 1);
    if (outChannels === 1) return { channels: [all] };
    const n = all.length >> 1;
    const left = new Int16Array(n);
    const right = new Int16Array(n);
    for (let i = 0; i < n; i++) {
      left[i] = all[2 * i];
      right[i] = all[2 * i + 1];
    }
    return { channels: [left, right] };
  };

  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let total = 0;
  try {
    for await (const chunk of child.stdout as AsyncIterable<Buffer>) {
      pending.push(chunk);
      pendingBytes += chunk.length;
      while (pendingBytes >= blockBytes) {
        const joined = Buffer.concat(pending, pendingBytes);
        total += blockBytes;
        if (total / (2 * outChannels) > maxSamples) {
          throw new AudioTooLongError(tooLongMessage(Math.round(opts.maxSeconds! / 60)));
        }
        yield toBlock(joined.subarray(0, blockBytes));
        const rest = joined.subarray(blockBytes);
        pending = rest.length ? [Buffer.from(rest)] : [];
        pendingBytes = rest.length;
      }
    }
    const code = await exited;
    opts.signal?.throwIfAborted();
    const frame = 2 * outChannels;
    const usable = pendingBytes - (pendingBytes % frame);
    if (code !== 0) {
      throw new AudioDecodeError(UNREADABLE_AUDIO_MESSAGE + describeFfmpegError(stderr));
    }
    if (usable > 0) {
      total += usable;
      if (total / (2 * outChannels) > maxSamples) {
        throw new AudioTooLongError(tooLongMessage(Math.round(opts.maxSeconds! / 60)));
      }
      yield toBlock(Buffer.concat(pending, pendingBytes).subarray(0, usable));
    }
    if (total === 0) throw new AudioDecodeError(UNREADABLE_AUDIO_MESSAGE);
  } finally {
    opts.signal?.removeEventListener('abort', onAbort);
    if (child.exitCode === null) child.kill('SIGKILL');
  }
}

function describeFfmpegError(stderr: string): string {
  const line = stderr
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)
    .pop();
  // The decoder's last line names the problem without exposing server paths.
  return line ? ` (${line.replace(/\/[^\s:]+/g, 'file').slice(0, 160)})` : '';
}

/** Decodes a whole (short) file into one mono buffer. For clips, tests and benchmarks. */
export async function decodeToMono(file: string, signal?: AbortSignal): Promise<Int16Array> {
  const parts: Int16Array[] = [];
  for await (const block of decodePcm(file, { signal })) parts.push(block.channels[0]);
  return concatPcm(parts);
}
