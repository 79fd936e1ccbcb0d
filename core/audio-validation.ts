import { MAX_AUDIO_BYTES } from './constants';

/** Audio upload rules (spec §5). */
export const ACCEPTED_AUDIO_TYPES = [
  'audio/mpeg',
  'audio/wav',
  'audio/mp3',
  'audio/m4a',
  'audio/mp4',
  'audio/webm',
  'audio/ogg',
] as const;
export const ACCEPTED_AUDIO_EXTENSIONS = ['mp3', 'wav', 'm4a', 'mp4', 'mpeg', 'mpga', 'webm', 'ogg'] as const;

export const INVALID_TYPE_MESSAGE = {
  title: 'Invalid file type',
  description: 'Please upload an audio file (MP3, WAV, M4A, etc.)',
};
export const TOO_LARGE_MESSAGE = {
  title: 'File too large',
  description: 'Please upload a file smaller than 25MB',
};
export const EMPTY_FILE_MESSAGE = {
  title: 'Empty file',
  description: 'The file is empty. Please choose a recording.',
};

export function fileExtension(name: string): string {
  const m = name.toLowerCase().match(/\.([a-z0-9]+)$/);
  return m ? m[1] : '';
}

export function isAcceptedAudio(mimeType: string | undefined | null, fileName: string): boolean {
  const type = (mimeType ?? '').toLowerCase().split(';')[0].trim();
  if ((ACCEPTED_AUDIO_TYPES as readonly string[]).includes(type)) return true;
  return (ACCEPTED_AUDIO_EXTENSIONS as readonly string[]).includes(fileExtension(fileName));
}

export type AudioFileProblem = 'invalid-type' | 'too-large' | 'empty';

/**
 * What is wrong with a chosen file, or null. A type and name off the spec's list are still
 * accepted when the file's first bytes are a recording (`contentIsAudio`, from
 * core/audio-sniff.ts): phones and call recorders name their AAC, AMR, 3GP, Opus, FLAC and CAF
 * files in ways browsers do not type.
 */
export function validateAudioFile(
  file: {
    type?: string | null;
    name: string;
    size: number;
  },
  opts: { contentIsAudio?: boolean } = {},
): AudioFileProblem | null {
  if (!isAcceptedAudio(file.type, file.name) && !opts.contentIsAudio) return 'invalid-type';
  if (file.size > MAX_AUDIO_BYTES) return 'too-large';
  if (file.size === 0) return 'empty';
  return null;
}

export function audioProblemMessage(problem: AudioFileProblem): { title: string; description: string } {
  if (problem === 'invalid-type') return INVALID_TYPE_MESSAGE;
  if (problem === 'too-large') return TOO_LARGE_MESSAGE;
  return EMPTY_FILE_MESSAGE;
}

export function formatMegabytes(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(2)} MB`;
}
