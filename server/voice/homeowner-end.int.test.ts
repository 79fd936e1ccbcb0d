import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../test-support/harness';
import { VoiceCallClient } from '../test-support/call-client';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ env: { RATE_LIMIT_VOICE: '0' } });
});
afterAll(async () => {
  await server?.close();
});

/** A typed call with the built-in homeowner, after its opening line. */
async function typedCall(stage: string) {
  const call = await VoiceCallClient.connect(server.url);
  call.sendJson({ type: 'start', stage, input: 'text', output: 'text' });
  await call.waitForEvent('ready');
  await call.waitForEvent('transcript', (e) => e.role === 'assistant' && e.transcriptType === 'final');
  return call;
}

async function say(call: VoiceCallClient, text: string): Promise<string> {
  const mark = call.received.length;
  call.sendJson({ type: 'user-text', text });
  const final = await call.waitForEvent(
    'transcript',
    (e) => e.role === 'assistant' && e.transcriptType === 'final',
    { from: mark },
  );
  return final.transcript;
}

describe('the homeowner ends calls like a person', () => {
  it("answers the rep's goodbye with a goodbye, then the call ends as the rep's hang-up", async () => {
    const call = await typedCall('General');
    expect(await say(call, 'How long have you lived here?')).toContain('25 years');
    expect(await say(call, 'Alright, I will let you go. Have a good one!')).toMatch(/bye|take care/i);
    expect(await call.waitForEvent('ended')).toEqual({ type: 'ended', reason: 'customer-ended-call' });
  });

  it('closes the door itself after sustained pressure', async () => {
    const call = await typedCall('Roofing');
    await say(call, 'this price is only good today, you have to sign now');
    await new Promise((r) => setTimeout(r, 150));
    await say(call, 'last chance, sign here or the price goes up tomorrow');
    expect(await call.waitForEvent('ended')).toEqual({ type: 'ended', reason: 'homeowner-ended-call' });
  });
});
