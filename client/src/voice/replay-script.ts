import { PERSONAS, isStage, type Stage } from '@core/stages';

/**
 * Scripted conversations for the replay engine. A script is a list of steps the engine
 * plays through the normal voice events, so the page cannot tell it from a live call.
 */
export type ReplayStep =
  /** A spoken line: partial transcripts grow word by word, then one final. */
  | { kind: 'say'; role: 'user' | 'assistant'; text: string }
  /** A partial transcript that is never finalised (the speaker is mid-sentence). */
  | { kind: 'partial'; role: 'user' | 'assistant'; text: string }
  | { kind: 'pause'; ms: number }
  /** Keep the call open until the rep stops it. */
  | { kind: 'hold' }
  /** The connection drops with an error event that carries no message. */
  | { kind: 'drop' };

export interface ReplayScript {
  name: string;
  /** When set, start() fails before the call connects, with this text ('' = no message). */
  failStartWith?: string;
  steps: ReplayStep[];
}

const say = (role: 'user' | 'assistant', text: string): ReplayStep => ({ kind: 'say', role, text });
const rep = (text: string) => say('user', text);
const owner = (text: string) => say('assistant', text);

const TOPIC: Record<Stage, { thing: string; worry: string; detail: string }> = {
  Windows: {
    thing: 'windows',
    worry: 'the other company quoted us a lot less for vinyl',
    detail: 'the bedroom ones fog up every winter and the living room gets drafty',
  },
  HVAC: {
    thing: 'furnace and air conditioning',
    worry: "I've got maybe fifteen minutes before I need to leave",
    detail: 'the upstairs never cools down and the furnace is about eighteen years old',
  },
  Roofing: {
    thing: 'roof',
    worry: 'the last roofer who knocked on our door disappeared with a deposit',
    detail: 'we had a leak over the garage after the hail storm in the spring',
  },
  Flooring: {
    thing: 'floors',
    worry: "I'm nervous it won't match the cabinets we just painted",
    detail: 'the carpet in the family room is worn and the kids spill everything',
  },
  General: {
    thing: 'home projects',
    worry: "I'm not sure what it would all cost",
    detail: "we've been meaning to update a few things since we moved in",
  },
};

/** A believable few-minute conversation for a stage, used when no test script is asked for. */
export function demoScript(stage: string): ReplayScript {
  const s: Stage = isStage(stage) ? stage : 'General';
  const name = PERSONAS[s].name;
  const t = TOPIC[s];
  return {
    name: 'demo',
    steps: [
      owner(`Hi there, I'm ${name}. You're the one who called about the ${t.thing}?`),
      rep(
        `Hi ${name}, thanks for having me. I'm Sam with Doorstep Home. Before I show you anything, what got you thinking about your ${t.thing}?`,
      ),
      owner(`Well, honestly ${t.detail}. It's been bugging us for a while.`),
      rep(
        'That sounds frustrating. How long has that been going on, and how is it affecting the family day to day?',
      ),
      owner(
        "A couple of years now. My husband keeps saying we'll deal with it next year, but every season it gets a little worse and the bills keep creeping up.",
      ),
      rep(
        'So comfort and the monthly bills both matter to you. If we fixed it, what would a good result look like?',
      ),
      owner("I'd want it to just work, look nice, and not have to think about it again for a long time."),
      rep(
        'That makes sense. I can walk you through two or three options at different price points so you can compare them side by side. Would that help?',
      ),
      owner(`Sure, but I'll be upfront, ${t.worry}.`),
      rep(
        'I appreciate you telling me. Can I ask what matters most to you besides the price, so we compare apples to apples?',
      ),
      owner('I guess the warranty, and whether the crew actually cleans up after themselves.'),
      rep(
        'Great questions. Our installation is backed for the life of the home and the crew lead does a walkthrough with you before we leave. Would it make sense to look at a proposal together on Thursday evening when your husband is home?',
      ),
      owner("Thursday could work. Send me something in writing first and we'll take a look."),
      rep(
        "Perfect, I'll email the options tonight and call you Wednesday to confirm Thursday at six. Thank you, " +
          name +
          '.',
      ),
    ],
  };
}

/** Deterministic scripts the browser tests drive through `?script=`. */
export const TEST_SCRIPTS: Record<string, ReplayScript> = {
  // 20 words from the rep, 30 from the homeowner: a 40/60 split, the listening target.
  'balance-60-40': {
    name: 'balance-60-40',
    steps: [
      rep('Hi there, thanks for having me. What made you start thinking about this?'),
      owner(
        'Well the old system is loud and the upstairs rooms never feel comfortable in summer, so we finally decided to get a few quotes.',
      ),
      rep('So what matters most to you here?'),
      owner('Honestly the bill and the crew.'),
      { kind: 'hold' },
    ],
  },
  // The rep is mid-sentence: a transcript exists but no final words yet (a 50/50 balance).
  'partial-hold': {
    name: 'partial-hold',
    steps: [{ kind: 'partial', role: 'user', text: 'So I was wondering' }, { kind: 'hold' }],
  },
  // Connected, nobody speaks.
  silent: { name: 'silent', steps: [{ kind: 'hold' }] },
  'start-failure': { name: 'start-failure', failStartWith: '', steps: [] },
  // The homeowner hangs up by themselves after a short wait.
  'hang-up': {
    name: 'hang-up',
    steps: [{ kind: 'pause', ms: 1500 }, owner("Sorry, I have to run. Let's talk another time.")],
  },
  'connection-drop': {
    name: 'connection-drop',
    steps: [owner('Hello?'), { kind: 'drop' }],
  },
  // The connection drops a few seconds into the call, after the clock has moved.
  'late-drop': {
    name: 'late-drop',
    steps: [owner('Hello?'), { kind: 'pause', ms: 3500 }, { kind: 'drop' }],
  },
};

export function scriptFor(name: string | null, stage: string): ReplayScript {
  if (name && TEST_SCRIPTS[name]) return TEST_SCRIPTS[name];
  return demoScript(stage);
}

export interface ReplayTiming {
  /** From start() to call-start. */
  connectMs: number;
  /** Speaking time per word. */
  wordMs: number;
  /** A partial transcript is sent every this many words. */
  wordsPerPartial: number;
  /** Silence between turns. */
  turnGapMs: number;
  /** How often the homeowner's volume level is reported while talking. */
  volumeIntervalMs: number;
}

/** About 170 words a minute with natural pauses. */
export const REALISTIC_TIMING: ReplayTiming = {
  connectMs: 900,
  wordMs: 350,
  wordsPerPartial: 3,
  turnGapMs: 900,
  volumeIntervalMs: 100,
};

/** The same conversation in a couple of seconds, for tests. */
export const FAST_TIMING: ReplayTiming = {
  connectMs: 60,
  wordMs: 12,
  wordsPerPartial: 3,
  turnGapMs: 30,
  volumeIntervalMs: 20,
};

export function timingFor(pace: string | null): ReplayTiming {
  return pace === 'fast' ? FAST_TIMING : REALISTIC_TIMING;
}

/** The partial texts a spoken line produces, then the final: growing prefixes of the words. */
export function partialPrefixes(text: string, wordsPerPartial: number): string[] {
  const words = text.split(/\s+/).filter(Boolean);
  const out: string[] = [];
  for (let n = wordsPerPartial; n < words.length; n += wordsPerPartial) out.push(words.slice(0, n).join(' '));
  return out;
}
