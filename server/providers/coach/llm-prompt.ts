import { describeMetrics, type ConversationMetrics } from '../../../core/conversation-metrics';
import { personaFor } from '../../../core/stages';
import type { TranscriptEntry } from '../../../core/transcript';
import type { EngineQuality } from '../../../core/engines';
import type { SectionKey } from '../../../core/coaching-format';
import type { ChatMessage } from '../llm/chat-client';

export const FORMAT_RULES = `Write the coaching in exactly this plain-text format, with nothing before or after it:

**Summary**
<the overall picture in 2-4 sentences, then the top two things to change, numbered>

---

**Best: <a short title for the single strongest moment>**
Score: <0-10>/10
<why it worked, quoting the rep on a line starting with '>'>

---

**To Improve: Empathy and Connection**
Score: <0-10>/10
<content>

---

**To Improve: Needs Analysis**
Score: <0-10>/10
<content>

---

**To Improve: Exploring Options**
Score: <0-10>/10
<content>

---

**To Improve: Objection Handling**
Score: <0-10>/10
<content>

---

**To Improve: Closing**
Score: <0-10>/10
<content>

---

**Follow-Up**
Score: <0-10>/10
<content>

Rules: scores are whole numbers from 0 to 10 (8-10 a clear strength, 5-7 partly there, 0-4 missing or harmful). In each section quote the rep's own words on lines starting with '>' as evidence and end with one better line to say next time, tuned to the homeowner's buyer type. Use **double asterisks** only for emphasis inside a line. Blank lines separate paragraphs.`;

export const RUBRIC = `How to score:
- Empathy and Connection: naming the homeowner's feelings, rapport, reflecting their words; pressure, interrupting or ignoring a concern lowers it.
- Needs Analysis: open questions (what, how, why) about the trade's real needs, followed up; budget, timing, plans and who decides. Many closed yes/no questions earn mid or low.
- Exploring Options: several priced options tied to what the homeowner said, plus a recommendation is high; pushing one top package is low.
- Objection Handling: acknowledge, clarify with a question, respond, then confirm is high; arguing, an instant discount or pressure is low. If no objection was raised and none pre-empted, score 5-6 and say so.
- Closing: a clear ask for a decision or firm next step. A made-up deadline ("price only good today") is low; never asking is low.
- Follow-Up: a confirmed date, time and attendees is high; a bare day or a step nobody agreed to is mid; "I'll call you sometime" is low.`;

export function transcriptText(entries: TranscriptEntry[], homeowner: string): string {
  return entries.map((e) => `${e.role === 'user' ? 'Rep' : homeowner}: ${e.transcript.trim()}`).join('\n');
}

export function coachingMessages(input: {
  stage: string;
  transcript: TranscriptEntry[];
  personaName?: string;
  metrics: ConversationMetrics;
  referenceScores?: Record<SectionKey, number>;
  /** What the rule-based analysis found per section, with the rep's lines as evidence. */
  evidence?: string[];
  /** How the call reached the coach (a recording has no persona; a typed call has no timing). */
  source?: 'roleplay' | 'recording';
  input?: 'speech' | 'typed';
  recognition?: EngineQuality;
  /** The questions as the coaching counts them, so every part states the same figures. */
  questions?: { total: number; open: number };
}): ChatMessage[] {
  const recording = input.source === 'recording';
  const persona = recording ? undefined : personaFor(input.stage);
  const homeowner = recording ? 'Customer' : input.personaName || 'Homeowner';
  const system = [
    'You are an experienced sales coach for in-home sales reps in home improvement (windows, HVAC, roofing, flooring and general remodelling).',
    'You coach the rep (the salesperson) on one conversation with a homeowner. Be specific, warm and direct, and ground every point in what was actually said.',
    RUBRIC,
    FORMAT_RULES,
  ].join('\n\n');
  const timing = new Set(['talkRatio', 'questionRate', 'interactivity', 'patience', 'pace']);
  const metricLines = describeMetrics(input.metrics)
    .filter((m) => input.input !== 'typed' || !timing.has(m.key))
    .map((m) => `- ${m.label}: ${m.value}`);
  const context = [
    recording
      ? 'This is a recording of a real sales call with a customer, not a role-play: never mention a role-play, a persona or a buyer type.'
      : '',
    input.input === 'typed'
      ? 'The rep typed the turns: say nothing about speaking pace, time or pauses.'
      : '',
    input.recognition === 'basic'
      ? 'The words come from basic speech recognition: say once that quotes are approximate, and quote only clear spans of five words or more.'
      : '',
    input.questions
      ? `Questions the rep asked, as the coaching counts them: ${input.questions.total}, ${input.questions.open} of them open. Use these figures.`
      : '',
    'Best is the strongest moment from Empathy and Connection, Needs Analysis or Exploring Options that scored 6 or more; if there is none, leave the Best part out. Name only people, days and prices the transcript names, and invite to a next step only people who are alive and part of the household or the decision.',
  ].filter(Boolean);
  const user = [
    `Trade: ${input.stage}.` +
      (persona ? ` The homeowner is a "${persona.buyerType}" buyer; the focus is "${persona.focus}".` : ''),
    ...context,
    '',
    'Measured conversation metrics (computed from the transcript; use them, do not recompute):',
    ...metricLines,
    ...(input.referenceScores
      ? [
          '',
          'Reference scores from a rule-based analysis of the same transcript (adjust them where the transcript shows otherwise):',
          ...Object.entries(input.referenceScores).map(([k, v]) => `- ${k}: ${v}/10`),
        ]
      : []),
    ...(input.evidence?.length
      ? [
          '',
          'Evidence the rule-based analysis found (quote only the rep, never the homeowner; check it against the transcript):',
          ...input.evidence,
        ]
      : []),
    '',
    'Transcript (Rep is the salesperson):',
    transcriptText(input.transcript, homeowner),
  ].join('\n');
  return [
    { role: 'system', content: system },
    { role: 'user', content: user },
  ];
}

export function retryMessage(problems: string[]): ChatMessage {
  return {
    role: 'user',
    content: `That answer does not follow the required format: ${problems.join(' ')} Write the complete coaching again, in exactly the required format, with all eight parts and a 'Score: N/10' line in each.`,
  };
}
