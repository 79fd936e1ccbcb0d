import {
  overallScore,
  renderCoaching,
  SECTION_KEYS,
  SECTION_TITLES,
  type CoachingDocument,
  type SectionKey,
} from '../../../../core/coaching-format';
import { conversationMetrics, type ConversationMetrics } from '../../../../core/conversation-metrics';
import type { TranscriptEntry } from '../../../../core/transcript';
import { betterLine, personaFocusNote } from './advice';
import { analyseConversation, type Analysis, type Evidence, type Finding } from './detectors';

export interface RubricInput {
  stage: string;
  transcript: TranscriptEntry[];
  durationSec?: number;
  personaName?: string;
}

export interface RubricResult {
  text: string;
  doc: CoachingDocument;
  metrics: ConversationMetrics;
  scores: Record<SectionKey, number>;
}

const findingFor = (a: Analysis, key: SectionKey): Finding =>
  ({
    empathy: a.empathy,
    needsAnalysis: a.needs,
    exploringOptions: a.options,
    objectionHandling: a.objections,
    closing: a.closing,
    followUp: a.followUp,
  })[key];

const sentence = (items: string[]) =>
  items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
const clean = (q: string) =>
  q
    .replace(/\s+/g, ' ')
    .replace(/^>+\s*/, '')
    .trim();

function sectionContent(
  key: SectionKey,
  found: Finding,
  score: number,
  stage: string,
  name: string,
  objectionKind?: string,
): string {
  const lines: string[] = [];
  // Speak of the homeowner by name when it is known.
  const personal = (s: string) =>
    name ? s.replace(/\bthe homeowner's\b/g, `${name}'s`).replace(/\bthe homeowner\b/g, name) : s;
  const f = { ...found, positives: found.positives.map(personal), gaps: found.gaps.map(personal) };
  const strong = score >= 8;
  if (f.positives.length) lines.push(`${strong ? 'You' : 'You'} ${sentence(f.positives)}.`);
  if (f.gaps.length && !strong) lines.push(`What held it back: ${sentence(f.gaps.slice(0, 3))}.`);
  else if (f.gaps.length && strong) lines.push(`To make it even stronger: ${f.gaps[0]}.`);
  if (!f.positives.length && !f.gaps.length) lines.push('Little to judge here from this conversation.');

  const good = [...f.evidence].sort((a, b) => b.strength - a.strength).slice(0, strong ? 2 : 1);
  const bad = [...f.missteps].sort((a, b) => b.strength - a.strength).slice(0, 1);
  if (good.length) {
    lines.push('', strong ? 'What worked:' : 'What you did:');
    for (const e of good) lines.push(`> "${clean(e.quote)}"`);
  }
  if (bad.length && !strong) {
    lines.push('', 'What cost you:');
    for (const e of bad) lines.push(`> "${clean(e.quote)}"`);
  }
  if (!good.length && !bad.length) lines.push('', 'No line in the conversation showed this behaviour.');
  lines.push('', `**Try this next time:** ${betterLine(key, stage, name, { objectionKind })}`);
  return lines.join('\n');
}

function bestMoment(
  a: Analysis,
  scores: Record<SectionKey, number>,
): { key: SectionKey; e: Evidence } | null {
  let best: { key: SectionKey; e: Evidence; rank: number } | null = null;
  for (const key of SECTION_KEYS) {
    for (const e of findingFor(a, key).evidence) {
      const rank = e.strength + scores[key] / 10;
      if (!best || rank > best.rank) best = { key, e, rank };
    }
  }
  return best;
}

const BEST_TITLES: Record<SectionKey, string> = {
  empathy: 'Showing you understood',
  needsAnalysis: 'A real discovery question',
  exploringOptions: 'Options built on their needs',
  objectionHandling: 'Handling the objection',
  closing: 'Asking for the decision',
  followUp: 'A concrete next step',
};

const TOP_FIX: Record<SectionKey, string> = {
  empathy: "name the homeowner's feelings before moving on",
  needsAnalysis: 'ask open questions about their needs, budget and plans before pitching',
  exploringOptions: 'offer two or three priced options tied to what they told you, and recommend one',
  objectionHandling: 'acknowledge, ask a question, answer, then check it landed',
  closing: 'ask directly for the decision or a firm next step',
  followUp: 'lock the next step: day, time, who attends and what happens',
};

/** The embedded coach: measured behaviours become scores, quotes and better lines. */
export function rubricCoaching(input: RubricInput): RubricResult {
  const metrics = conversationMetrics(input.transcript, { durationSec: input.durationSec });
  const a = analyseConversation(input.transcript, { stage: input.stage, personaName: input.personaName });
  const name = input.personaName ?? '';
  const homeowner = name || 'the homeowner';

  const scores = Object.fromEntries(
    SECTION_KEYS.map((k) => [k, Math.round(findingFor(a, k).score)]),
  ) as Record<SectionKey, number>;

  const doc: CoachingDocument = {
    summary: '',
    best: null,
    sections: SECTION_KEYS.map((key) => ({
      key,
      title: SECTION_TITLES[key],
      score: scores[key],
      content: sectionContent(key, findingFor(a, key), scores[key], input.stage, name, a.objections.kinds[0]),
    })),
  };

  const best = bestMoment(a, scores);
  if (best) {
    doc.best = {
      title: BEST_TITLES[best.key],
      score: scores[best.key],
      content: [
        `Your strongest moment was in ${SECTION_TITLES[best.key]}: you ${best.e.label}.`,
        '',
        `> "${clean(best.e.quote)}"`,
        '',
        'Do this on every call.',
      ].join('\n'),
    };
  } else {
    doc.best = {
      title: 'Getting the conversation started',
      score: Math.max(...Object.values(scores)),
      content: `You opened a conversation with ${homeowner}. Next time, aim for one clear moment of connection and one real question about their needs.`,
    };
  }

  const overall = overallScore(doc) ?? 0;
  const ranked = [...SECTION_KEYS].sort((x, y) => scores[y] - scores[x]);
  const strengths = ranked.filter((k) => scores[k] >= 8).slice(0, 2);
  const fixes = [...SECTION_KEYS]
    .filter((k) => !(k === 'objectionHandling' && a.objections.raised === 0))
    .sort((x, y) => scores[x] - scores[y])
    .slice(0, 2);
  const focus = personaFocusNote(input.stage);
  const rep = metrics.repWords;
  const summary: string[] = [];
  if (rep === 0) {
    summary.push(
      `There was almost nothing from you (the rep) in this conversation, so there is little to coach. If the speakers look swapped, swap them and coach again.`,
    );
  } else {
    summary.push(
      `Overall **${overall}/10** across the six areas in this ${input.stage} conversation with ${homeowner}.` +
        (strengths.length
          ? ` Your strengths: ${sentence(strengths.map((k) => SECTION_TITLES[k]))}.`
          : ' No area was a clear strength yet.'),
    );
    summary.push(
      '',
      `You spoke ${metrics.talkRatioWordsPercent}% of the words (top reps are nearer 43%), asked ${metrics.questions.total} question${metrics.questions.total === 1 ? '' : 's'} (${metrics.questions.open} open)` +
        (metrics.pressurePhrases.length
          ? ` and used ${metrics.pressurePhrases.length} pressure phrase${metrics.pressurePhrases.length === 1 ? '' : 's'}.`
          : '.'),
    );
  }
  if (fixes.length) {
    summary.push('', '**Top two things to change**, in order:');
    fixes.forEach((k, i) =>
      summary.push(
        `${i + 1}. ${SECTION_TITLES[k]} (${scores[k]}/10): ${TOP_FIX[k].replace("the homeowner's", name ? `${name}'s` : "the homeowner's")}.`,
      ),
    );
  }
  if (a.rolesLookSwapped) {
    summary.push(
      '',
      '**Check the speakers:** the homeowner side of this transcript does the selling, so the speakers may be swapped. If so, swap them and coach again.',
    );
  }
  if (focus) summary.push('', `${cap(homeowner)} plays a ${focus}`);
  doc.summary = summary.join('\n');

  return { text: renderCoaching(doc), doc, metrics, scores };
}
