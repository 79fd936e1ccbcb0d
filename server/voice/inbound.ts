import {
  clientMessageSchema,
  MAX_CONTROL_PER_SEC,
  MAX_FRAME_BYTES,
  MAX_USER_TEXT_CHARS,
  type ClientMessage,
} from './protocol';

/**
 * Checks on what a call's socket sends, before the session acts on it: control messages
 * (rate, JSON, shape) and audio frames (whole 16-bit samples, bounded size).
 */

/** Why an inbound message is refused; `keepCall` when the call goes on after the error. */
export interface Refusal {
  code: string;
  message: string;
  keepCall?: boolean;
}

/** Control messages allowed per second; one more ends the call as a flood. */
export class ControlRate {
  private windowStart = 0;
  private count = 0;

  allow(now: number): boolean {
    if (now - this.windowStart > 1000) {
      this.windowStart = now;
      this.count = 0;
    }
    return ++this.count <= MAX_CONTROL_PER_SEC;
  }
}

/**
 * Typed (or browser-recognised) rep turns at a person's pace: a bucket of `burst` turns that
 * refills one every `intervalMs`. Each answered turn costs the server's event loop a few ms
 * (docs/benchmarks.md), so the pace, with MAX_TEXT_CALLS, bounds what text calls cost it.
 * An interval of 0 lets every turn through.
 */
export class TurnRate {
  private tokens: number;
  private last: number | null = null;

  constructor(
    private readonly intervalMs: number,
    private readonly burst: number,
  ) {
    this.tokens = burst;
  }

  allow(now: number): boolean {
    if (this.intervalMs <= 0) return true;
    if (this.last !== null) {
      this.tokens = Math.min(this.burst, this.tokens + (now - this.last) / this.intervalMs);
    }
    this.last = now;
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }
}

/** A text frame as a client message, or why it is refused. */
export function parseControl(raw: string): { msg: ClientMessage } | { refusal: Refusal } {
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    return { refusal: { code: 'bad-message', message: 'Control messages must be JSON' } };
  }
  const parsed = clientMessageSchema.safeParse(json);
  if (parsed.success) return { msg: parsed.data };
  if (isUserText(json)) {
    // A bad typed turn is the rep's slip, not a broken client: say so and keep the call.
    return {
      refusal: {
        code: 'bad-message',
        message: `A typed turn needs 1 to ${MAX_USER_TEXT_CHARS} characters of text`,
        keepCall: true,
      },
    };
  }
  const issue = parsed.error.issues[0];
  const where = issue?.path.length ? `${issue.path.join('.')}: ` : '';
  return {
    refusal: {
      code: 'bad-message',
      message: `Invalid message: ${where}${issue?.message ?? 'unknown shape'}`,
    },
  };
}

/** A non-empty binary frame as 16 kHz mono Int16 little-endian samples, or why it is refused. */
export function readFrame(data: Buffer): { samples: Int16Array } | { refusal: Refusal } {
  if (data.length % 2 !== 0)
    return { refusal: { code: 'bad-frame', message: 'Audio frames must hold whole 16-bit samples' } };
  if (data.length > MAX_FRAME_BYTES)
    return {
      refusal: { code: 'frame-too-large', message: `Audio frames are limited to ${MAX_FRAME_BYTES} bytes` },
    };
  const samples = new Int16Array(data.length / 2);
  for (let i = 0; i < samples.length; i++) samples[i] = data.readInt16LE(i * 2);
  return { samples };
}

function isUserText(json: unknown): boolean {
  return typeof json === 'object' && json !== null && (json as { type?: unknown }).type === 'user-text';
}
