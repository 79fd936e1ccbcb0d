import type { SectionKey } from '../../../../core/coaching-format';
import { personaFor, type PersonaCard } from '../../../../core/stages';

/**
 * One better line to say next time, per section, tuned to the trade's real needs and to the
 * persona's buyer type and focus. `{name}` is the homeowner's name.
 */
interface TradeLines {
  needs: string;
  options: string;
  proof: string;
}

const TRADE: Record<string, TradeLines> = {
  Windows: {
    needs:
      'When you think about these windows through a winter, what bothers you most: the drafts, the outside noise, or what it does to the energy bills?',
    options:
      "Since the back bedroom is what bothers you most, there are three ways to do this: just the worst windows, the whole house, or the whole house with quieter glass where the road is. Here's what each costs, and I'd lean toward the one that fixes what you told me about.",
    proof:
      'Let me show you the line-by-line on the glass and the install, so you can compare us to the other quotes apples to apples.',
  },
  HVAC: {
    needs:
      'How old is the system, and which rooms are never quite comfortable? And what have the bills looked like this summer?',
    options:
      "Based on the age and those bills, you've got three routes: keep repairing, a straight swap, or a higher-efficiency system. Here's the price of each, and for how long you plan to stay, I'd go with this one.",
    proof: 'Here are the numbers: what it costs, what it saves each year, and what happens if you wait.',
  },
  Roofing: {
    needs:
      'Where does the water show up, and when did it start? Was there a storm around then, and have you talked to your insurance yet?',
    options:
      'For the leak and your plans for the house, there are three ways: a repair, a full replacement, or an upgraded roof. Here is each price, and because of what you told me I would pick the middle one.',
    proof:
      'Here are my license and insurance, three neighbours you can call, and no deposit until the materials are on your driveway.',
  },
  Flooring: {
    needs:
      'Walk me through a normal day in this room: who is on the floor, any pets, and how do you want it to look and feel when it is done?',
    options:
      "With the kids and the dog in mind, here are three floors in the look you described, with prices, and the one I'd choose for how you live.",
    proof:
      'Take these samples home for a week: let the dog run on them and see them in your light before you decide.',
  },
  General: {
    needs: "What's got you thinking about this now, and how do you picture using it once it's done?",
    options:
      "Based on how you said you'll use it, here are three ways to do it, what each costs, and the one I'd pick for you.",
    proof:
      "Here's a job we finished nearby, with photos and the homeowner's number if you'd like to ask them.",
  },
};

/** Extra words shaped by the buyer type: brevity for the time-pressed, proof for the distrusting... */
function toneFor(persona: PersonaCard | undefined): { opener: string; check: string } {
  const type = persona?.buyerType.toLowerCase() ?? '';
  if (type.includes('time-pressed') || type.includes('impatient'))
    return {
      opener: 'I know your time is short, so in one minute:',
      check: 'Is that clear enough to decide on?',
    };
  if (type.includes('distrust') || type.includes('hard sell'))
    return {
      opener: "You've been burned before, so don't take my word for it:",
      check: 'What would you need to see to feel sure about us?',
    };
  if (type.includes('skeptical') || type.includes('value comparison'))
    return {
      opener: "You're right to compare.",
      check: 'Does that explain the difference from the other quotes?',
    };
  if (type.includes('cautious') || type.includes('style'))
    return {
      opener: 'It makes sense to be careful with something you will see every day.',
      check: 'Would that make you feel better about it?',
    };
  return { opener: 'Good question.', check: 'Does that make sense so far?' };
}

/** The objection answer, shaped by the kind of objection the homeowner actually raised. */
function objectionLine(
  kind: string | undefined,
  trade: TradeLines,
  tone: { opener: string; check: string },
): string {
  switch (kind) {
    case 'competitor':
      return `You should compare. Can I ask what the other quote included? ${trade.proof} ${tone.check}`;
    case 'stall':
      return `Of course, it's a big decision. What would your partner want to see? If it helps, I can come back when you're both here. ${tone.check}`;
    case 'trust':
      return `After what happened, I'd be careful too. What would make you feel safe? ${trade.proof} ${tone.check}`;
    case 'need':
      return `Fair enough, and it may be fine. Can I ask what the last person who looked at it found? ${trade.proof} ${tone.check}`;
    case 'time':
      return `I'll respect your time, so in one minute: ${trade.proof} Or is there a better time to talk?`;
    case 'worry':
      return `That's a real worry. What have you seen go wrong before? ${trade.proof} ${tone.check}`;
    default:
      return `I hear you, that's real money. Can I ask what you're comparing it to? ${tone.opener} ${trade.proof} ${tone.check}`;
  }
}

export function betterLine(
  key: SectionKey | 'best',
  stage: string,
  name: string,
  context: { objectionKind?: string } = {},
): string {
  const persona = personaFor(stage);
  const trade = TRADE[stage] ?? TRADE.General;
  const tone = toneFor(persona);
  const who = name || 'there';
  switch (key) {
    case 'empathy':
      return `"${who}, that sounds really frustrating. Before I show you anything, tell me more about how it's affecting you."`;
    case 'needsAnalysis':
      return `"${trade.needs}"`;
    case 'exploringOptions':
      return `"${trade.options}"`;
    case 'objectionHandling':
      return `"${objectionLine(context.objectionKind, trade, tone)}"`;
    case 'closing':
      return `"From everything you've told me, this one fits. Would you like to go ahead and get it on the schedule?"`;
    case 'followUp':
      return `"So that's Tuesday the 14th at 6:30 pm, you, your partner and me. I'll text you the quote tonight and bring samples. Does that work?"`;
    default:
      return `"${tone.opener} ${tone.check}"`;
  }
}

/** What the persona is testing, said in the coaching so the advice reads as tuned to them. */
export function personaFocusNote(stage: string): string | null {
  const p = personaFor(stage);
  if (!p) return null;
  return `${p.buyerType} buyer; the focus is ${p.focus.toLowerCase()}.`;
}
