import { describe, expect, it } from 'vitest';
import { parseCoaching, renderCoaching, type CoachingDocument } from '../../core/coaching-format';
import { renderCoachingSummaryEmail, topImprovements, topStrengths } from './coaching-summary';
import { keyMetrics } from './key-metrics';
import { conversationMetrics } from '../understanding/metrics';
import { finalEntries } from '../../core/transcript';

function doc(scores: [number, number, number, number, number, number], best = 9): CoachingDocument {
  const keys = [
    'empathy',
    'needsAnalysis',
    'exploringOptions',
    'objectionHandling',
    'closing',
    'followUp',
  ] as const;
  const titles = [
    'Empathy and Connection',
    'Needs Analysis',
    'Exploring Options',
    'Objection Handling',
    'Closing',
    'Follow-Up',
  ];
  return {
    summary: 'A **solid** call.',
    best: { title: 'Great opener', score: best, content: 'You smiled.' },
    sections: keys.map((key, i) => ({
      key,
      title: titles[i],
      score: scores[i],
      content: `Advice for ${titles[i]}.\n> Better ${titles[i]} line`,
    })),
  };
}

const base = {
  stage: 'Windows',
  personaName: 'Linda',
  metrics: [],
  appUrl: 'https://app.example/',
};

describe('coaching summary email', () => {
  it('ranks strengths high to low and improvements low to high, with their better lines', () => {
    const d = doc([8, 6, 2, 9, 4, 7]);
    expect(topStrengths(d).map((h) => h.title)).toEqual([
      'Great opener',
      'Objection Handling',
      'Empathy and Connection',
    ]);
    const imp = topImprovements(d);
    expect(imp.map((h) => [h.title, h.score])).toEqual([
      ['Exploring Options', 2],
      ['Closing', 4],
      ['Needs Analysis', 6],
    ]);
    expect(imp[0].betterLines).toEqual(['Better Exploring Options line']);
  });

  it('falls back to the best-scored section when nothing reaches 8', () => {
    const d = { ...doc([3, 4, 2, 5, 1, 2]), best: null };
    expect(topStrengths(d).map((h) => h.title)).toEqual(['Objection Handling']);
  });

  it('lists every score in both parts and survives a round trip through the stored text', () => {
    const d = parseCoaching(renderCoaching(doc([8, 6, 2, 9, 4, 7])))!;
    const email = renderCoachingSummaryEmail({ ...base, doc: d });
    for (const s of d.sections) {
      expect(email.text).toContain(`${s.title}: ${s.score}/10`);
      expect(email.html).toContain(`data-score="${s.score}"`);
    }
    expect(email.subject).toBe('Your Doorstep coaching summary: 6/10 overall');
    expect(email.text).toContain('Practise again: https://app.example/');
    const linked = renderCoachingSummaryEmail({
      ...base,
      doc: d,
      sessionUrl: 'https://app.example/?session=abc',
    });
    expect(linked.text).toContain('See this call again: https://app.example/?session=abc');
    expect(linked.html).toContain('href="https://app.example/?session=abc"');
    expect(email.text).not.toContain('**');
  });

  it('escapes everything it puts into the HTML part', () => {
    const d = doc([8, 6, 2, 9, 4, 7]);
    d.sections[2].content = 'Say <script>x()</script> & "this"\n> <b>line</b>';
    const email = renderCoachingSummaryEmail({
      ...base,
      doc: d,
      appUrl: 'javascript:alert(1)',
      metrics: [{ label: '<i>', value: '"v"', healthy: false }],
    });
    expect(email.html).not.toMatch(/<script|<b>|<i>|javascript:/);
    expect(email.html).toContain('&lt;script&gt;x()&lt;/script&gt; &amp; &quot;this&quot;');
    expect(email.html).toContain('href="#"');
  });

  it('greets everyone the same way: nothing the form’s sender wrote reaches the email', () => {
    const email = renderCoachingSummaryEmail({ ...base, doc: doc([8, 6, 2, 9, 4, 7]) });
    expect(email.text.startsWith('Hi there,\n')).toBe(true);
    expect(email.html).toContain('<p style="margin:0 0 12px">Hi there,</p>');
  });

  it('still sends a useful email when the session has no coaching', () => {
    const email = renderCoachingSummaryEmail({ ...base, doc: null });
    expect(email.subject).toBe('Your Doorstep coaching summary');
    expect(email.text).toContain('no scores');
    expect(email.text).toContain('https://app.example/');
  });
});

describe('key metrics', () => {
  const t0 = 1_700_000_000_000;
  const transcript = [
    {
      role: 'user' as const,
      transcript: 'Hi, how are you? What brings you to look at windows?',
      timestamp: t0,
      transcriptType: 'final' as const,
    },
    {
      role: 'assistant' as const,
      transcript: 'The rooms are drafty and our bills went up a lot this winter.',
      timestamp: t0 + 5000,
    },
    {
      role: 'user' as const,
      transcript: 'ignored partial words here?',
      timestamp: t0 + 6000,
      transcriptType: 'partial' as const,
    },
    { role: 'user' as const, transcript: 'Great.', timestamp: t0 + 65_000, transcriptType: 'final' as const },
  ];

  it('measures from the final entries when nothing is stored, with the shared wording', () => {
    const m = keyMetrics(transcript, { duration: '65', personaName: 'Linda' });
    const byLabel = Object.fromEntries(m.map((x) => [x.label, x]));
    expect(byLabel['Call length'].value).toBe('1:05');
    expect(byLabel['Speaking balance']).toEqual({
      label: 'Speaking balance',
      value: 'You 48% / Linda 52% (target: Linda 60%+)',
      healthy: false,
    });
    expect(byLabel['Questions asked'].value).toMatch(/^2 \(/);
    expect(byLabel['Pressure phrases']).toMatchObject({ value: 'none', healthy: true });
  });

  it('prefers the metrics stored with the coaching', () => {
    const stored = {
      ...conversationMetrics(finalEntries(transcript)),
      questions: { total: 7, open: 5, closed: 2 },
    };
    const m = keyMetrics(transcript, { duration: '65', personaName: 'Linda', stored });
    expect(m.find((x) => x.label === 'Questions asked')?.value).toBe('7 (5 open, 2 closed)');
  });

  it('is empty without a conversation', () => {
    expect(keyMetrics([], { personaName: 'Linda' })).toEqual([]);
  });
});
