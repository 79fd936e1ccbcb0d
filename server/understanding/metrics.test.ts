import { describe, expect, it } from 'vitest';
import { describeMetrics, isConversationMetrics } from '../../core/conversation-metrics';
import type { TranscriptEntry } from '../../core/transcript';
import { conversationMetrics } from './metrics';
import { countFillers, findPressurePhrases } from './readers/delivery';
import { classifyQuestion, findQuestions, isSmallTalk } from './readers/questions';
import { looseContractions } from './text/normalise';

const T0 = 1_700_000_000_000;
/** Entries from [role, text, end time in seconds from the call start]. */
const call = (rows: [TranscriptEntry['role'], string, number][]): TranscriptEntry[] =>
  rows.map(([role, transcript, sec]) => ({ role, transcript, timestamp: T0 + sec * 1000 }));

// Rep: 10 words in 0-4 s, 6 words in 10-14 s; homeowner: 4 words in 4-10 s... (times are turn windows)
const sample = call([
  ['user', 'Hi there, what got you thinking about new windows today?', 4], // 10 words, window 4 s
  ['assistant', 'The bedroom is freezing.', 10], // 4 words, window 6 s
  ['user', 'Um, how long has that been going on?', 14], // 8 words, window 4 s
  ['assistant', 'Two winters now, and the bills keep going up.', 20], // 9 words, window 6 s
  ['user', 'I hear you.', 22], // 3 words, window 2 s
  ['user', 'Do you want me to measure them?', 26], // 7 words, window 4 s
]);

describe('conversationMetrics', () => {
  const m = conversationMetrics(sample, { durationSec: 26 });

  it('measures talk ratio by words and by time', () => {
    expect(m.repWords).toBe(28);
    expect(m.homeownerWords).toBe(13);
    expect(m.talkRatioWordsPercent).toBe(Math.round((28 / 41) * 100));
    // Rep windows 4 + 4 + 2 + 4 = 14 s of 26 s.
    expect(m.talkRatioTimePercent).toBe(Math.round((14 / 26) * 100));
  });

  it('joins consecutive rep entries into one monologue', () => {
    expect(m.longestMonologueWords).toBe(10);
    const split = conversationMetrics(
      call([
        ['assistant', 'Hello.', 1],
        ['user', 'one two three four five', 3],
        ['user', 'six seven eight nine ten eleven', 6],
        ['assistant', 'Okay.', 7],
      ]),
    );
    expect(split.longestMonologueWords).toBe(11);
    expect(split.longestMonologueSec).toBe(5);
  });

  it('counts open and closed questions and the question rate', () => {
    expect(m.questions).toEqual({ total: 3, open: 1, closed: 2 });
    expect(m.questionsPerMinute).toBe(Math.round((3 / (26 / 60)) * 10) / 10);
  });

  it('counts speaker switches per minute', () => {
    // user>assistant>user>assistant>user(>user): 4 switches in 26 s.
    expect(m.interactivityPerMinute).toBe(Math.round((4 / (26 / 60)) * 10) / 10);
  });

  it('counts fillers and the rep pace', () => {
    expect(m.fillerWords).toBe(1);
    expect(m.paceWpm).toBe(Math.round(28 / (14 / 60)));
  });

  it('estimates the pause before the rep answers from their fastest long turn', () => {
    // Fastest long rep turn: 10 words in 4 s (2.5 words/s). Answers: 8 words in 4 s (pause 0.8 s)
    // and 3 words in 2 s (pause 0.8 s).
    expect(m.patienceSec).toBe(0.8);
  });

  it('leaves time metrics empty when timestamps carry no information', () => {
    const flat = conversationMetrics(sample.map((e) => ({ ...e, timestamp: 0 })));
    expect(flat.talkRatioTimePercent).toBeNull();
    expect(flat.paceWpm).toBeNull();
    expect(flat.patienceSec).toBeNull();
    expect(flat.durationSec).toBeNull();
    expect(flat.talkRatioWordsPercent).toBe(m.talkRatioWordsPercent);
  });

  it('ignores partial entries and handles an empty call', () => {
    const withPartial = [
      ...sample,
      {
        role: 'user' as const,
        transcript: 'and also',
        timestamp: T0 + 27000,
        transcriptType: 'partial' as const,
      },
    ];
    expect(conversationMetrics(withPartial, { durationSec: 26 }).repWords).toBe(28);
    const empty = conversationMetrics([]);
    expect(empty).toMatchObject({ repWords: 0, talkRatioWordsPercent: 0, questions: { total: 0 } });
    expect(isConversationMetrics(empty)).toBe(true);
  });

  it('lists pressure phrases', () => {
    const p = conversationMetrics(
      call([['user', "This price is only good today. Trust me, you'd be crazy to pass.", 5]]),
    );
    expect(p.pressurePhrases).toEqual(expect.arrayContaining(['only good today', 'trust me']));
  });
});

describe('questions', () => {
  it.each([
    ['What matters most to you?', 'open'],
    ['how do you use the room day to day', 'open'],
    ['tell me about the deck', 'open'],
    ['can i ask what got you looking', 'open'],
    ['How many windows?', 'closed'],
    ['do you have a furnace or a heat pump', 'closed'],
    ['are you the owner', 'closed'],
    ['Golden?', 'closed'],
  ])('%s is %s', (text, kind) => {
    expect(classifyQuestion(text)).toBe(kind);
  });

  it.each(['We install about a thousand a year.', 'i can show you what you get', 'so that is what we do'])(
    '%s is a statement',
    (text) => {
      expect(findQuestions(text)).toEqual([]);
    },
  );

  it('finds questions inside unpunctuated recogniser text', () => {
    const qs = findQuestions(
      'okay so we do a lot of roofs around here what got you calling us and have you talked to your insurance',
    );
    expect(qs.map((q) => q.kind)).toEqual(['open', 'closed']);
  });

  it('takes the clause a question mark ends, counts a run-on question once, and reads "what we do is" as a statement', () => {
    const kinds = (text: string) => findQuestions(text).map((q) => q.kind);
    expect(kinds("Good. Before I go up, what's been going on with the gutters?")).toEqual(['open']);
    expect(kinds('good before i go up whats been going on with the gutters')).toEqual(['open']);
    expect(kinds('and how long have you had the furnace')).toEqual(['closed']);
    expect(kinds('so tell me a bit about what you are hoping for')).toEqual(['open']);
    expect(kinds('gotcha and whats most important to you with the new floors')).toEqual(['open']);
    expect(kinds('on a scale of one to ten how serious is the draft in the den')).toHaveLength(1);
    expect(kinds('what we do is we come out and measure every opening')).toEqual([]);
    expect(kinds('What we do is measure every opening?')).toHaveLength(1);
  });

  it('starts a question at a modal right after "to", which only a new clause can do', () => {
    const qs = findQuestions(
      'i get why that is tempting nobody likes paying more than they need to can i ask what their bid covers',
    );
    expect(qs.map((q) => q.text)).toEqual(['can i ask what their bid covers']);
    // "to" followed by an auxiliary that is not a modal stays inside the clause.
    expect(findQuestions('we would love to have you over for the install day sometime soon')).toEqual([]);
  });
});

describe('fillers and pressure', () => {
  it('counts hesitations and "you know" but not "do you know"', () => {
    expect(countFillers('Um, so, uh, you know, it is, like, basically done.')).toBe(5);
    expect(countFillers('Do you know what she got? I know you know the house.')).toBe(0);
  });

  it('finds pressure in recogniser text and leaves honest urgency alone', () => {
    expect(
      findPressurePhrases('if i walk out that door that price goes away its only good today'),
    ).toHaveLength(3);
    expect(findPressurePhrases('The rebate program ends in March, so there is no rush before then.')).toEqual(
      [],
    );
  });

  it('matches contractions fused, split or with apostrophes', () => {
    const re = looseContractions(/\byou d be\b/);
    expect(['youd be', 'you d be'].every((s) => re.test(s))).toBe(true);
  });
});

describe('describeMetrics', () => {
  it('explains every metric with a healthy range', () => {
    const rows = describeMetrics(conversationMetrics(sample, { durationSec: 26 }));
    expect(rows.map((r) => r.key)).toEqual([
      'talkRatio',
      'longestMonologue',
      'questions',
      'questionRate',
      'interactivity',
      'patience',
      'fillers',
      'pace',
      'pressure',
    ]);
    for (const r of rows) expect(r.help.length).toBeGreaterThan(40);
    expect(rows[0].help).toContain('aim for 40% or less, so the homeowner speaks 60% or more');
  });
});

describe('small talk', () => {
  it('is a question, marked as a pleasantry', () => {
    expect(classifyQuestion('How are you this evening?')).not.toBeNull();
    expect(isSmallTalk('How are you this evening?')).toBe(true);
    expect(isSmallTalk('hi hows it going')).toBe(true);
    expect(isSmallTalk('How are you heating the house now?')).toBe(false);
  });
});

describe('questions after a greeting', () => {
  it('finds the question behind "hi there" without reading "there is" as one', () => {
    expect(classifyQuestion('hi there how old is the system')).toBe('closed');
    expect(classifyQuestion('Hi there, what got you looking?')).toBe('open');
    expect(findQuestions('There is a leak in the back bedroom.')).toEqual([]);
  });
});

describe('contracted "did" questions', () => {
  it.each([
    ["how'd the inspection go"],
    ["so what'd the other company tell you"],
    ["oh wow why'd they pull it out"],
  ])('finds an open question in unpunctuated text: %s', (text) => {
    expect(findQuestions(text).map((q) => q.kind)).toEqual(['open']);
  });
});

describe('typed calls', () => {
  const T0 = 1_700_000_000_000;
  // Typed turns arrive whole, a moment after the homeowner's line: their windows time typing.
  const typed = [
    { role: 'assistant' as const, transcript: 'Hi, can I help you?', timestamp: T0 + 2000 },
    {
      role: 'user' as const,
      transcript: 'Hi Tom, I am here about the deck and the back door you mentioned on the phone.',
      timestamp: T0 + 2010,
    },
    { role: 'assistant' as const, transcript: 'Oh right, come on in.', timestamp: T0 + 5000 },
  ];

  it('shows no pace a person could not speak at', () => {
    const m = conversationMetrics(typed, { durationSec: 5 });
    expect(m.paceWpm).toBeNull();
  });

  it('leaves out what times speech, keeping what words measure', () => {
    const m = conversationMetrics(typed, { durationSec: 5 });
    const keys = describeMetrics(m, { typed: true }).map((r) => r.key);
    expect(keys).toEqual(['talkRatio', 'longestMonologue', 'questions', 'pressure']);
    const talk = describeMetrics(m, { typed: true })[0];
    expect(talk.value).not.toMatch(/of time/);
  });
});
