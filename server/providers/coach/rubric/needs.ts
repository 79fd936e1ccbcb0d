import { normalizeText, splitSentences } from '../../../understanding/text/normalise';
import { endsSentence, hasSentenceMark } from '../../../understanding/text/marks';
import {
  classifyQuestion,
  findQuestions,
  isNameCheck,
  isSmallTalk,
} from '../../../understanding/readers/questions';
import { livingNames } from '../../../understanding/readers/next-step';
import {
  asksForAnAccount,
  buildsOnTheirWords,
  narrowsToMenu,
  pointsBack,
  questionForm,
  runOnOpenQuestions,
} from '../../../understanding/readers/discovery-questions';
import type { CorpusTopic } from '../../../understanding/labels';
import { analyse, overlap } from '../../../nlp';
import { needAreas, TRADE_STAPLES, UNIVERSAL_DEPTH_AREAS } from '../../../understanding/readers/needs';
import { type Turn, type Finding, type QuestionFact, has, clamp, prevOwner, LOGISTICS } from './turns';

// ---------------------------------------------------------------- needs analysis

/** The shared reading's topics that are need areas of a discovery. */
const TOPIC_AREA: Partial<Record<CorpusTopic, string>> = {
  budget: 'budget',
  timeline: 'timeline',
  decision: 'decision',
  priorities: 'priorities',
  quotes: 'alternatives',
};

export function detectQuestions(turns: Turn[], stage: string): QuestionFact[] {
  const areas = needAreas(stage);
  const out: QuestionFact[] = [];
  const unfinished = (x: Turn | undefined) => x?.role === 'user' && !endsSentence(x.text);
  // Names the call gives, so "Marisol?" at the door is read as a name checked, not a question.
  const callNames = livingNames(
    turns.map((x) => ({ text: x.text, speaker: x.role === 'user' ? 'rep' : 'homeowner' })),
  );
  turns.forEach((t0, i) => {
    if (t0.role !== 'user') return;
    // A recogniser splits a long turn mid-question ("if it were up to you what would" / "you want
    // out of today"): read an unpunctuated fragment with the rep's next one, as one turn.
    if (unfinished(turns[i - 1])) return;
    let last = i;
    while (unfinished(turns[last]) && turns[last + 1]?.role === 'user') last++;
    const t: Turn =
      last === i
        ? t0
        : {
            ...t0,
            text: turns
              .slice(i, last + 1)
              .map((x) => x.text)
              .join(' '),
            norm: turns
              .slice(i, last + 1)
              .map((x) => x.norm)
              .join(' '),
          };
    const prev = prevOwner(turns, i);
    const answer = turns.slice(last + 1).find((x) => x.role === 'assistant');
    const found = findQuestions(t.text);
    // Unpunctuated recogniser text: open questions that start mid-turn ("...so tell me what happened").
    if (!hasSentenceMark(t.text))
      for (const clause of runOnOpenQuestions(t.norm)) {
        if (!found.some((q) => normalizeText(q.text).includes(clause.split(' ').slice(0, 4).join(' '))))
          found.push({ text: clause, kind: classifyQuestion(clause) ?? 'open' });
      }
    // An open request inside a sentence ("Before I look, tell me what's been going on.").
    for (const s of splitSentences(t.text)) {
      const n = normalizeText(s);
      if (
        asksForAnAccount(n) &&
        !found.some((q) => normalizeText(q.text).includes(n) || n.includes(normalizeText(q.text)))
      )
        found.push({ text: s, kind: 'open' });
    }
    for (const q of found) {
      const qn = normalizeText(q.text);
      if (has(LOGISTICS, qn) || isSmallTalk(q.text) || isNameCheck(q.text, callNames)) continue;
      let kind = q.kind;
      // A menu of answers ("energy, looks, noise?") narrows an open question to a choice.
      // ...unless the menu stays open ("noise, the bills, anything?").
      if (kind === 'open' && narrowsToMenu(q.text)) kind = 'closed';
      const form = questionForm(q.text, kind);
      const shared = prev
        ? overlap(prev.lemmas, analyseLite(q.text)).filter((w) => !TRADE_STAPLES.has(w))
        : [];
      const anaphora = pointsBack(qn, form === 'open');
      // "When you say...", "you mentioned...", "tell me more" build on the last answer by form.
      const buildsOn = buildsOnTheirWords(qn);
      const followUp = !!prev && prev.words >= 5 && (shared.length >= 1 || anaphora || buildsOn);
      const hit = areas
        .filter(
          (a) =>
            a.pattern.test(qn) ||
            (answer && answer.words >= 3 && a.pattern.test(answer.norm) && form !== 'yesno'),
        )
        .map((a) => a.id);
      // What the shared reading says the question is about counts too (the first question of a turn).
      if (q === found[0])
        for (const topic of t0.topics) {
          const id = TOPIC_AREA[topic];
          if (id && !hit.includes(id) && areas.some((a) => a.id === id)) hit.push(id);
        }
      out.push({ turn: i, text: q.text, kind, form, followUp, areas: hit });
    }
  });
  return out;
}

const liteCache = new Map<string, Set<string>>();
function analyseLite(text: string): Set<string> {
  let s = liteCache.get(text);
  if (!s) {
    s = analyse(text).lemmas;
    if (liteCache.size > 500) liteCache.clear();
    liteCache.set(text, s);
  }
  return s;
}

export function detectNeeds(
  turns: Turn[],
  questions: QuestionFact[],
  discoveryEnd: number,
  singlePush: boolean,
  stage: string,
): { finding: Finding; covered: string[]; talkedOf: string[] } {
  const f: Finding = { score: 0, positives: [], gaps: [], evidence: [], missteps: [] };
  const discovery = questions.filter((q) => q.turn < discoveryEnd);
  const open = discovery.filter((q) => q.form === 'open').length;
  const probe = discovery.filter((q) => q.form === 'probe').length;
  const yesno = discovery.filter((q) => q.form === 'yesno').length;
  const followUps = discovery.filter((q) => q.followUp).length;
  const covered = [...new Set(discovery.flatMap((q) => q.areas))];
  const depth = covered.some((a) => UNIVERSAL_DEPTH_AREAS.has(a));

  let score =
    1 +
    Math.min(5, open * 1.2 + probe * 0.7 + yesno * 0.25) +
    Math.min(1.5, followUps * 0.4) +
    Math.min(3, covered.length * 0.6);
  const total = discovery.length;
  if (total >= 4 && yesno / total >= 0.7) score = Math.min(score, 4);
  if (!depth) score = Math.min(score, 7); // high needs budget, timing, plans or who decides
  if (open + probe * 0.5 < 2.5) score = Math.min(score, 7); // and open questions, not a checklist
  if (singlePush) score = Math.min(score, 6); // answers that never shaped the offer
  if (total === 0) score = Math.min(score, 1.5);
  // Two questions and nothing built on the answers is not an exploration of needs, however open.
  if (total <= 2 && followUps === 0) score = Math.min(score, 4);
  f.score = clamp(score);
  f.signals = { open, probe, yesno, total, followUps, depth: depth ? 1 : 0, singlePush: singlePush ? 1 : 0 };

  const ranked = [...discovery].sort((a, b) => rankQ(b) - rankQ(a) || a.turn - b.turn);
  for (const q of ranked.slice(0, 3)) {
    f.evidence.push({
      quote: q.text,
      turn: q.turn,
      strength: q.form === 'open' ? 0.55 + Math.min(0.3, q.areas.length * 0.1) : 0.35,
      label: q.form === 'open' ? 'asked an open discovery question' : 'probed a need',
    });
  }
  const labels = needAreas(stage);
  const coveredLabels = covered
    .map((id) => labels.find((a) => a.id === id)?.label)
    .filter(Boolean) as string[];
  if (open) f.positives.push(`asked ${open} open question${open > 1 ? 's' : ''}`);
  if (followUps) f.positives.push(`followed up on ${followUps} answer${followUps > 1 ? 's' : ''}`);
  if (coveredLabels.length) f.positives.push(`covered ${coveredLabels.slice(0, 4).join(', ')}`);
  if (total === 0) f.gaps.push('asked no discovery questions before pitching');
  else if (total >= 4 && yesno / total >= 0.7)
    f.gaps.push(`${yesno} of ${total} questions were yes/no, so the homeowner never explained what matters`);
  else if (!open) f.gaps.push('asked no open questions (what, how, why)');
  if (!depth && total) f.gaps.push('never explored budget, timing, plans or who else decides');
  if (singlePush && total) f.gaps.push('the answers never shaped what was offered');
  // "Explore X" is advice only about what never came up: a topic the homeowner talked through, or
  // the rep raised outside a question, was part of the call even if no question named it.
  const talkedOf = new Set(
    turns.flatMap((t) => [
      ...labels.filter((a) => a.pattern.test(t.norm)).map((a) => a.id),
      ...t.topics.flatMap((topic) => TOPIC_AREA[topic] ?? []),
    ]),
  );
  const missing = labels.filter(
    (a) =>
      !covered.includes(a.id) &&
      !talkedOf.has(a.id) &&
      !['timeline', 'decision', 'priorities'].includes(a.id),
  );
  if (missing.length && total)
    f.gaps.push(
      `left unexplored: ${missing
        .slice(0, 3)
        .map((a) => a.label)
        .join(', ')}`,
    );
  return { finding: f, covered, talkedOf: [...talkedOf] };
}

const rankQ = (q: QuestionFact) =>
  (q.form === 'open' ? 3 : q.form === 'probe' ? 2 : 1) + q.areas.length * 0.5 + (q.followUp ? 0.5 : 0);
