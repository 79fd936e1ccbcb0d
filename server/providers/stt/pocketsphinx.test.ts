import { describe, expect, it } from 'vitest';
import { splitAtQuietPoints } from '../../audio/chunking';
import { BATCH_ARGS, balancedChunkMs, decoderCommand, parsePocketSphinxOutput } from './pocketsphinx';

const sample = `what your country
<s> 5.300 5.340 0.999200
what 5.350 5.600 0.285662
your 5.610 5.850 0.709042
<sil> 5.860 5.900 0.5
country(2) 5.910 6.420 0.473555
</s> 6.430 6.950 1.000000
[NOISE] 
<s> 8.070 8.150 0.998900
[NOISE] 8.160 8.530 0.840868
</s> 8.540 8.990 1.000000
`;

describe('pocketsphinx output parsing', () => {
  it('turns timed word lines into segments, dropping fillers and pronunciation variants', () => {
    const segs = parsePocketSphinxOutput(sample, 1000);
    expect(segs).toHaveLength(1);
    expect(segs[0].text).toBe('what your country');
    expect(segs[0].startMs).toBe(6350);
    expect(segs[0].endMs).toBe(7420);
    expect(segs[0].words?.map((w) => w.word)).toEqual(['what', 'your', 'country']);
  });
});

describe('the command that decodes a chunk', () => {
  const common = ['-hmm', 'm/en-us', ...BATCH_ARGS];
  const base = { binary: 'pocketsphinx_continuous', batchBinary: 'build/sphinx-batch', domain: null };

  it('starts cepstral normalisation from the chunk itself when the helper is built', () => {
    const [bin, args] = decoderCommand({ ...base, cmnFirst: true }, 'c.wav', common);
    expect(bin).toBe('build/sphinx-batch');
    expect(args.join(' ')).toContain('-cmnfirst yes');
    expect(args.join(' ')).toContain('-remove_noise no');
    expect(args).not.toContain('-mixlm');
  });

  it('falls back to the Debian tool, with word times, without the helper', () => {
    const [bin, args] = decoderCommand({ ...base, batchBinary: null, cmnFirst: true }, 'c.wav', common);
    expect(bin).toBe('pocketsphinx_continuous');
    expect(args.join(' ')).toContain('-infile c.wav -time yes');
    expect(args).not.toContain('-cmnfirst');
  });

  it('mixes a second model in through the helper', () => {
    const domain = { lm: 's.arpa', weight: 0.2, dict: 't.dict' };
    const [bin, args] = decoderCommand({ ...base, cmnFirst: false, domain }, 'c.wav', common);
    expect(bin).toBe('build/sphinx-batch');
    expect(args.join(' ')).toContain('-mixlm s.arpa -mixweight 0.2 -adddict t.dict');
    expect(args).not.toContain('-cmnfirst');
  });
});

describe('chunk length for the decoders', () => {
  /** Speech-like bursts of `speechMs` with `pauseMs` of silence between them, at 16 kHz. */
  const withPauses = (totalMs: number, speechMs: number, pauseMs: number) => {
    const pcm = new Int16Array((totalMs * 16000) / 1000);
    for (let i = 0; i < pcm.length; i++) {
      const inSpeech = ((i * 1000) / 16000) % (speechMs + pauseMs) < speechMs;
      pcm[i] = inSpeech ? Math.round(8000 * Math.sin(i / 3)) : 0;
    }
    return pcm;
  };
  const lengths = (totalMs: number, workers: number) =>
    splitAtQuietPoints(withPauses(totalMs, 2600, 400), {
      sampleRate: 16000,
      maxMs: balancedChunkMs(totalMs, 30_000, workers),
    }).map((c) => (c.end - c.start) / 16);

  it('gives both cores an equal share of a 35 s recording instead of 30 s + 5 s', () => {
    const ms = lengths(35_000, 2);
    expect(ms).toHaveLength(2);
    expect(Math.min(...ms)).toBeGreaterThan(12_000);
    expect(Math.max(...ms)).toBeLessThan(22_000);
  });

  it('makes a two-minute window an even number of chunks, each within 30 s', () => {
    const ms = lengths(120_000, 2);
    expect(ms.length % 2).toBe(0);
    expect(Math.max(...ms)).toBeLessThanOrEqual(30_000);
  });

  it('leaves short recordings whole and one decoder at the plain limit', () => {
    expect(balancedChunkMs(25_000, 30_000, 2)).toBe(30_000);
    expect(balancedChunkMs(200_000, 30_000, 1)).toBe(30_000);
    expect(lengths(25_000, 2)).toEqual([25_000]);
  });
});
