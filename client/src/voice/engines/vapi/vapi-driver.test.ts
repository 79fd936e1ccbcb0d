import { describe, expect, it } from 'vitest';
import type { ClientConfig } from '../../engine-registry';
import type { VoiceMessage } from '../../types';
import { WrappedVoiceClient } from '../../wrapper';
import { VapiVoiceDriver, type VapiLike } from './vapi-driver';

/** Plays Vapi's side: records calls and lets the test raise the SDK's events. */
class StandInVapi implements VapiLike {
  listeners = new Map<string, ((p?: any) => void)[]>();
  started: string[] = [];
  stopped = 0;
  constructor(private readonly answer: unknown) {}
  on(event: string, l: (p?: any) => void) {
    this.listeners.set(event, [...(this.listeners.get(event) ?? []), l]);
  }
  raise(event: string, payload?: unknown) {
    for (const l of this.listeners.get(event) ?? []) l(payload);
  }
  async start(id: string) {
    this.started.push(id);
    return this.answer;
  }
  async stop() {
    this.stopped++;
    this.raise('call-end');
  }
}

const config: ClientConfig = {
  voiceProvider: 'vapi',
  vapi: { publicKey: 'pk', assistants: { General: 'asst-general' } },
  hubspot: null,
};

function client(cfg: ClientConfig | null, vapi: StandInVapi) {
  return new WrappedVoiceClient(new VapiVoiceDriver(cfg, () => vapi));
}

describe('Vapi engine', () => {
  it('starts the stage assistant and relays Vapi events through the wrapper', async () => {
    const vapi = new StandInVapi({ id: 'call-1' });
    const c = client(config, vapi);
    const log: string[] = [];
    c.on('call-start', () => log.push('call-start'));
    c.on('call-end', () => log.push('call-end'));
    c.on('message', (m: VoiceMessage) =>
      log.push(`${m.type}:${(m as { transcript?: string }).transcript ?? (m as { status?: string }).status}`),
    );
    await c.start({ stage: 'General', sessionId: 's' });
    expect(vapi.started).toEqual(['asst-general']);
    vapi.raise('call-start');
    vapi.raise('message', { type: 'transcript', role: 'user', transcriptType: 'final', transcript: 'hello' });
    // Vapi's own end-of-call update is replaced by the wrapper's single one.
    vapi.raise('message', { type: 'status-update', status: 'ended', endedReason: 'assistant-ended-call' });
    c.stop();
    await new Promise((r) => setTimeout(r, 0));
    expect(log).toEqual(['call-start', 'transcript:hello', 'call-end', 'status-update:ended']);
    expect(vapi.stopped).toBe(1);
  });

  it('refuses a stage without an assistant', async () => {
    const c = client(config, new StandInVapi({ id: 'x' }));
    await expect(c.start({ stage: 'Roofing', sessionId: 's' })).rejects.toThrow(
      'No assistant configured for stage: Roofing',
    );
  });

  it('says the voice client is not initialized without a public key', async () => {
    const c = client({ ...config, vapi: null }, new StandInVapi({ id: 'x' }));
    await expect(c.start({ stage: 'General', sessionId: 's' })).rejects.toThrow(/not initialized/);
  });

  it("reports 'Failed to start call' when Vapi returns no call", async () => {
    const c = client(config, new StandInVapi(null));
    await expect(c.start({ stage: 'General', sessionId: 's' })).rejects.toThrow('Failed to start call');
  });
});
