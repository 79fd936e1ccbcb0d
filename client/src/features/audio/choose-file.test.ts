import { describe, expect, it } from 'vitest';
import { MAX_AUDIO_BYTES } from '@core/constants';
import { chosenFileProblem } from './choose-file';

/** The start of a FLAC file: its marker and a STREAMINFO block header. */
const flac = new Uint8Array([
  ...new TextEncoder().encode('fLaC'),
  0x00,
  0x00,
  0x00,
  0x22,
  ...new Uint8Array(34),
]);

describe('choosing a file to upload', () => {
  it('accepts a recording off the usual list by its content', async () => {
    // Browsers type many recorders' files as nothing at all.
    expect(await chosenFileProblem(new File([flac], 'Call 0412.flac', { type: '' }))).toBeNull();
    const amr = new Uint8Array([...new TextEncoder().encode('#!AMR\n'), 0x3c, 0x91, 0x17, 0x16]);
    expect(
      await chosenFileProblem(new File([amr], 'record.amr', { type: 'application/octet-stream' })),
    ).toBeNull();
  });

  it('refuses what is not a recording, and keeps the size and empty rules', async () => {
    expect(await chosenFileProblem(new File(['hello'], 'notes.txt', { type: 'text/plain' }))).toBe(
      'invalid-type',
    );
    expect(await chosenFileProblem(new File([new Uint8Array(0)], 'call.mp3', { type: 'audio/mpeg' }))).toBe(
      'empty',
    );
    const big = new File([new Uint8Array(MAX_AUDIO_BYTES + 1)], 'call.wav', { type: 'audio/wav' });
    expect(await chosenFileProblem(big)).toBe('too-large');
  });
});
