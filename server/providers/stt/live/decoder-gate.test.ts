import { describe, expect, it } from 'vitest';
import { DecoderGate, type GatedDecoder } from './decoder-gate';

/** A decoder with frames queued at given times; `release` hands over all of them. */
class Member implements GatedDecoder {
  frames: { at: number; urgent: boolean }[] = [];
  handed = 0;
  released: string[];
  dead = false;
  constructor(
    readonly name: string,
    log: string[],
  ) {
    this.released = log;
  }
  get waiting() {
    return this.frames.length > 0;
  }
  get urgent() {
    return this.frames.some((f) => f.urgent);
  }
  get waitingSince() {
    return this.frames[0]?.at ?? Infinity;
  }
  get busy() {
    return this.handed > 0;
  }
  release() {
    if (this.dead) return;
    this.handed = this.frames.length;
    this.frames = [];
    this.released.push(this.name);
  }
  /** The decoder finished what it was handed. */
  done(gate: DecoderGate) {
    this.handed = 0;
    gate.pump();
  }
}

describe('DecoderGate: the cores shared among live decoders by urgency', () => {
  it('lets no more decoders work at once than it has slots', () => {
    const log: string[] = [];
    const gate = new DecoderGate(2);
    const ms = ['a', 'b', 'c'].map((n) => new Member(n, log));
    ms.forEach((m, i) => {
      m.frames.push({ at: i, urgent: false });
      gate.join(m);
    });
    expect(log).toEqual(['a', 'b']);
    expect(gate.working).toBe(2);
    ms[0].done(gate);
    expect(log).toEqual(['a', 'b', 'c']);
    expect(gate.working).toBe(2);
  });

  it('gives a free slot to the decoder a turn waits on before older audio of reps still talking', () => {
    const log: string[] = [];
    const gate = new DecoderGate(1);
    const talking = new Member('talking', log);
    const older = new Member('older', log);
    const paused = new Member('paused', log);
    for (const m of [talking, older, paused]) gate.join(m);
    talking.frames.push({ at: 0, urgent: false });
    gate.pump();
    expect(log).toEqual(['talking']);
    older.frames.push({ at: 1, urgent: false });
    paused.frames.push({ at: 5, urgent: false }, { at: 6, urgent: true });
    gate.pump();
    // The slot is taken: nothing else starts until it is free.
    expect(log).toEqual(['talking']);
    talking.done(gate);
    expect(log).toEqual(['talking', 'paused']);
    paused.done(gate);
    expect(log).toEqual(['talking', 'paused', 'older']);
  });

  it('serves equals oldest first, and a decoder that leaves gives up its slot', () => {
    const log: string[] = [];
    const gate = new DecoderGate(1);
    const a = new Member('a', log);
    const b = new Member('b', log);
    const c = new Member('c', log);
    for (const m of [a, b, c]) gate.join(m);
    a.frames.push({ at: 1, urgent: false });
    gate.pump();
    c.frames.push({ at: 2, urgent: true });
    b.frames.push({ at: 3, urgent: true });
    gate.pump();
    expect(log).toEqual(['a']);
    // `a` dies while working: its slot goes to the oldest urgent one.
    gate.leave(a);
    expect(log).toEqual(['a', 'c']);
    c.done(gate);
    expect(log).toEqual(['a', 'c', 'b']);
  });

  it('passes over a decoder that cannot take its frames instead of spinning on it', () => {
    const log: string[] = [];
    const gate = new DecoderGate(1);
    const stuck = new Member('stuck', log);
    const other = new Member('other', log);
    stuck.dead = true;
    stuck.frames.push({ at: 0, urgent: true });
    other.frames.push({ at: 1, urgent: false });
    gate.join(stuck);
    gate.join(other);
    expect(log).toEqual(['other']);
    expect(gate.working).toBe(1);
  });
});
