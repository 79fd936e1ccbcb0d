import { afterEach, describe, expect, it, vi } from 'vitest';
import type { StartCallOptions, StartProgress, VoiceMessage } from './types';
import {
  microphoneErrorMessage,
  StartStageError,
  WrappedVoiceClient,
  type EngineDriver,
  type EngineHooks,
} from './wrapper';

/** A driver that runs real wrapper stages and lets the test play the remote side. */
class TestDriver implements EngineDriver {
  readonly kind = 'local' as const;
  hooks: EngineHooks | null = null;
  stops = 0;
  failAt: string | null = null;

  async start(_o: StartCallOptions, hooks: EngineHooks) {
    this.hooks = hooks;
    await hooks.step('initialization', () => undefined);
    await hooks.step('mobile-permissions', () => {
      if (this.failAt === 'mobile-permissions') {
        throw new StartStageError('mobile-permissions', microphoneErrorMessage({ name: 'NotAllowedError' }));
      }
    });
    await hooks.step('daily-call-join', () => undefined);
    hooks.emit('call-start');
  }

  async stop() {
    this.stops++;
  }
}

const opts: StartCallOptions = { stage: 'General', sessionId: 's1' };

function record(client: WrappedVoiceClient) {
  const log: string[] = [];
  client.on('call-start', () => log.push('call-start'));
  client.on('call-end', () => log.push('call-end'));
  client.on('speech-start', () => log.push('speech-start'));
  client.on('speech-end', () => log.push('speech-end'));
  client.on('message', (m: VoiceMessage) =>
    log.push(`message:${m.type}:${(m as { endedReason?: string }).endedReason ?? ''}`),
  );
  client.on('error', (e) => log.push(`error:${(e as { type?: string }).type}`));
  return log;
}

afterEach(() => vi.useRealTimers());

describe('voice wrapper (spec §4)', () => {
  it('refuses a second start with already-started', async () => {
    const client = new WrappedVoiceClient(new TestDriver());
    const errors: unknown[] = [];
    client.on('error', (e) => errors.push(e));
    await client.start(opts);
    await expect(client.start(opts)).rejects.toThrow();
    expect(errors).toEqual([expect.objectContaining({ type: 'validation-error', error: 'already-started' })]);
  });

  it('reports each start stage as started then completed', async () => {
    const client = new WrappedVoiceClient(new TestDriver());
    const progress: StartProgress[] = [];
    client.on('call-start-progress', (p) => progress.push(p));
    await client.start(opts);
    expect(progress.map((p) => `${p.stage}:${p.status}`)).toEqual([
      'initialization:started',
      'initialization:completed',
      'mobile-permissions:started',
      'mobile-permissions:completed',
      'daily-call-join:started',
      'daily-call-join:completed',
    ]);
  });

  it('on a microphone refusal: reports the failed stage, cleans up, and can start again', async () => {
    const driver = new TestDriver();
    driver.failAt = 'mobile-permissions';
    const client = new WrappedVoiceClient(driver);
    const failed: unknown[] = [];
    client.on('call-start-failed', (f) => failed.push(f));
    await expect(client.start(opts)).rejects.toThrow(/Microphone access is blocked.*try again/);
    expect(failed).toEqual([expect.objectContaining({ stage: 'mobile-permissions' })]);
    expect(driver.stops).toBe(1);
    expect(client.isStarted).toBe(false);
    driver.failAt = null;
    await client.start(opts);
    expect(client.isStarted).toBe(true);
  });

  it('emits call-end then exactly one ended status update', async () => {
    const driver = new TestDriver();
    const client = new WrappedVoiceClient(driver);
    const log = record(client);
    await client.start(opts);
    // The engine forwards the remote's own status update; the wrapper sends its own once.
    driver.hooks!.emit('message', {
      type: 'status-update',
      status: 'ended',
      endedReason: 'assistant-ended-call',
    });
    driver.hooks!.ended();
    client.stop();
    await new Promise((r) => setTimeout(r, 0));
    expect(log.filter((l) => l !== 'call-start')).toEqual([
      'call-end',
      'message:status-update:customer-ended-call',
    ]);
  });

  it('derives speech start and end from the remote level', async () => {
    vi.useFakeTimers();
    const driver = new TestDriver();
    const client = new WrappedVoiceClient(driver);
    const levels: number[] = [];
    client.on('volume-level', (l) => levels.push(l));
    const log = record(client);
    await client.start(opts);
    driver.hooks!.remoteLevel(0.005);
    expect(log).not.toContain('speech-start');
    driver.hooks!.remoteLevel(0.03);
    expect(log).toContain('speech-start');
    expect(levels).toEqual([0.005 / 0.15, 0.2]);
    driver.hooks!.remoteLevel(0.5);
    expect(levels[2]).toBe(1);
    vi.advanceTimersByTime(900);
    expect(log).not.toContain('speech-end');
    vi.advanceTimersByTime(150);
    expect(log).toContain('speech-end');
  });

  it('gives every microphone failure a message with a way to retry', () => {
    for (const name of ['NotAllowedError', 'NotFoundError', 'NotReadableError', 'Weird']) {
      expect(microphoneErrorMessage({ name })).toMatch(/try again/);
    }
  });
});
