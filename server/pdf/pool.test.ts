import { afterEach, describe, expect, it } from 'vitest';
import { HttpError } from '../errors';
import type { ReportInput } from './report';
import { PdfRenderer } from './pool';

const input = (turns: number): ReportInput => ({
  fileName: 'call.mp3',
  stage: 'Windows',
  uploadedAt: '2026-11-25T07:00:00.000Z',
  durationMs: turns * 4000,
  transcript: Array.from({ length: turns }, (_, i) => ({
    role: i % 2 ? ('assistant' as const) : ('user' as const),
    transcript: `Line ${i} about the drafty windows and what they would cost to replace this year.`,
    timestamp: i * 4000,
  })),
  coaching: null,
  metrics: null,
  sttEngine: { quality: 'basic' },
  coachingEngine: null,
});

describe('reports rendered on worker threads', () => {
  let renderer: PdfRenderer | undefined;
  afterEach(async () => {
    await renderer?.close();
    renderer = undefined;
  });

  it('renders a whole PDF on a worker and hands it back as a Buffer', async () => {
    renderer = new PdfRenderer({ size: 1, maxQueue: 2 });
    expect(renderer.pool.stats().started).toBe(0);
    const pdf = await renderer.render(input(40));
    expect(Buffer.isBuffer(pdf)).toBe(true);
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(pdf.subarray(-6).toString('latin1')).toContain('%%EOF');
    // The work ran on the pool's thread, not this one.
    expect(renderer.pool.stats()).toMatchObject({ started: 1, running: 0, queued: 0 });
  });

  it('refuses downloads beyond its queue with a 503 and Retry-After, and keeps serving', async () => {
    renderer = new PdfRenderer({ size: 1, maxQueue: 1 });
    const running = renderer.render(input(400));
    const queued = renderer.render(input(2));
    const refused = await renderer.render(input(2)).catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(HttpError);
    expect((refused as HttpError).statusCode).toBe(503);
    expect(Number((refused as HttpError).headers['retry-after'])).toBeGreaterThan(0);
    for (const pdf of await Promise.all([running, queued])) {
      expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    }
  });
});
