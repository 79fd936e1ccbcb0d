import { SNIFF_BYTES, sniffAudio } from '@core/audio-sniff';
import { validateAudioFile, type AudioFileProblem } from '@core/audio-validation';

/** File types the picker offers: the spec's list and what phones and call recorders write. */
export const PICKER_ACCEPT =
  'audio/*,.mp3,.wav,.m4a,.mp4,.mpeg,.mpga,.webm,.ogg,.aac,.amr,.awb,.3gp,.3ga,.opus,.flac,.caf';

/**
 * What is wrong with a chosen file, or null. A type and name off the usual list are checked by
 * the file's first bytes, as the server checks them: a recorder's AMR, 3GP, Opus, FLAC or CAF
 * file is accepted by what it is.
 */
export async function chosenFileProblem(file: File): Promise<AudioFileProblem | null> {
  const problem = validateAudioFile(file);
  if (problem !== 'invalid-type') return problem;
  let head: Uint8Array;
  try {
    head = new Uint8Array(await file.slice(0, SNIFF_BYTES).arrayBuffer());
  } catch {
    return problem;
  }
  return validateAudioFile(file, { contentIsAudio: sniffAudio(head).ok });
}
