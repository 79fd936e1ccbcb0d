import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Providers } from '../providers/registry';
import type { SpeechToText } from '../providers/stt/types';
import { instrumentJob, instrumentProviders } from './instrument';
import { jobDuration, sttRealTimeFactor } from './metrics';

async function sampleCount(
  metric: { get(): Promise<{ values: { metricName?: string; labels: any; value: number }[] }> },
  labels: Record<string, string>,
) {
  const { values } = await metric.get();
  const hit = values.find(
    (v) => v.metricName?.endsWith('_count') && Object.entries(labels).every(([k, x]) => v.labels[k] === x),
  );
  return hit?.value ?? 0;
}

describe('instrumentation', () => {
  it('records the speech-to-text real-time factor of whole clips, not of tiny ones', async () => {
    const engine: SpeechToText = {
      id: 'rtf-test-engine',
      label: 'test',
      async transcribe(pcm) {
        await new Promise((r) => setTimeout(r, 20));
        return [{ startMs: 0, endMs: (pcm.length / 16) | 0, text: 'hello' }];
      },
    };
    const providers = new Providers();
    providers.set('stt', engine, {
      capability: 'speech-to-text',
      engine: 'rtf-test-engine',
      label: 'test',
      reason: 'test',
      quality: 'basic',
      ok: true,
    });
    instrumentProviders(providers);
    const segments = await providers.get('stt').transcribe(new Int16Array(16_000));
    expect(segments[0].text).toBe('hello');
    await providers.get('stt').transcribe(new Int16Array(100));
    expect(await sampleCount(sttRealTimeFactor, { engine: 'rtf-test-engine', mode: 'clip' })).toBe(1);
    const { values } = await sttRealTimeFactor.get();
    const sum = values.find((v) => v.metricName?.endsWith('_sum') && v.labels.engine === 'rtf-test-engine');
    // 20 ms of work on 1 s of audio: a factor near 0.02, well under real time.
    expect(sum!.value).toBeGreaterThan(0.015);
    expect(sum!.value).toBeLessThan(1);
  });

  it('measures an engine switched in after a model download the same way', async () => {
    const engine = (id: string): SpeechToText => ({
      id,
      label: id,
      async transcribe(pcm) {
        return [{ startMs: 0, endMs: (pcm.length / 16) | 0, text: id }];
      },
    });
    const info = (id: string) => ({
      capability: 'speech-to-text' as const,
      engine: id,
      label: id,
      reason: 'test',
      quality: 'basic' as const,
      ok: true,
    });
    const providers = new Providers();
    providers.set('stt', engine('rtf-before-switch'), info('rtf-before-switch'));
    instrumentProviders(providers);
    providers.replace('stt', engine('rtf-after-switch'), info('rtf-after-switch'));
    expect((await providers.get('stt').transcribe(new Int16Array(16_000)))[0].text).toBe('rtf-after-switch');
    expect(await sampleCount(sttRealTimeFactor, { engine: 'rtf-after-switch', mode: 'clip' })).toBe(1);
  });

  it('labels job runs done, retry, failed or interrupted', async () => {
    const job = (attempts: number, maxAttempts: number) => ({ attempts, maxAttempts }) as any;
    const run = async (kind: string, fail: boolean, attempts: number, aborted = false) => {
      const abort = new AbortController();
      if (aborted) abort.abort();
      const def = instrumentJob({
        name: kind,
        schema: z.object({}),
        handle: async () => {
          if (fail) throw new Error('no');
        },
      });
      await def
        .handle(
          {},
          {
            job: job(attempts, 3),
            signal: abort.signal,
            heartbeat: async () => {},
            deps: undefined,
            step: (_name, fn) => fn(),
          },
        )
        .catch(() => undefined);
    };
    await run('metrics-test', false, 1);
    await run('metrics-test', true, 1);
    await run('metrics-test', true, 3);
    await run('metrics-test', true, 1, true);
    for (const outcome of ['done', 'retry', 'failed', 'interrupted'])
      expect(await sampleCount(jobDuration, { kind: 'metrics-test', outcome })).toBe(1);
  });
});
