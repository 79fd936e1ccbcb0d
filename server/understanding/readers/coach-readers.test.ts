import { describe, expect, it } from 'vitest';
import { COUNTING_WORDS, wordAlternation } from '../entities/numbers';
import { isSpanDay } from '../entities';
import { normalizeText } from '../text/normalise';
import {
  clausesOf,
  endsSentence,
  endsWithQuestionMark,
  repairRecogniserSlips,
  saysWord,
} from '../text/marks';
import { quoteMatching } from '../text/quote';
import { coachingFromReply, countsIn, namesOfPeopleIn, quotedLinesOf } from './coaching-text';
import { questionForm, narrowsToMenu, runOnOpenQuestions } from './discovery-questions';
import { englishShare } from './language';
import {
  changesSubject,
  CHECKS_ANSWER_LANDED,
  keepsTheirCondition,
  PRICE_CONCESSION,
} from './objection-handling';
import { choiceMarkers, countedChoices, distinctPrices, ORDINAL_BONUS } from './options-offered';
import { isNumberWord, SHARES_CONCERN } from './rapport';
import { namesDayBackFirst, withoutRoutine, withoutWellWishes, NAMES_DAY } from './next-step';
import { opensWithNo, repliesWithRepsDay } from './replies';
import { wordsAroundFigure } from './selling-talk';

const n = normalizeText;

describe('the readers the coach reads a call with', () => {
  it('share one number-word table, one to ninety in counting order', () => {
    expect(COUNTING_WORDS.one).toBe(1);
    expect(COUNTING_WORDS.nineteen).toBe(19);
    expect(COUNTING_WORDS.ninety).toBe(90);
    expect('zero' in COUNTING_WORDS).toBe(false);
    expect(Object.keys(COUNTING_WORDS)).toHaveLength(27);
    expect(wordAlternation(['one', 'two'])).toBe('(one|two)');
  });

  it('read sentence marks, clauses and whole words', () => {
    expect(endsSentence('We can do Tuesday.')).toBe(true);
    expect(endsSentence('so what I was going to')).toBe(false);
    expect(endsWithQuestionMark('Does Tuesday work? ')).toBe(true);
    expect(clausesOf('Fine, Tuesday. See you')).toEqual(['Fine', ' Tuesday', ' See you']);
    expect(repairRecogniserSlips('we want too see it your welcome')).toBe('we want to see it youre welcome');
    expect(saysWord('ask linda first', 'linda')).toBe(true);
    expect(saysWord('ask belinda first', 'linda')).toBe(false);
  });

  it('quote the sentence a pattern matched', () => {
    const text = 'Thanks for having me. I can knock a grand off today. Anyway.';
    expect(quoteMatching(text, n(text), PRICE_CONCESSION)).toBe('I can knock a grand off today.');
    expect(quoteMatching(text, n(text))).toBe('Thanks for having me.');
  });

  it('read how push-back is met', () => {
    expect(CHECKS_ANSWER_LANDED.test(n('Does that make sense?'))).toBe(true);
    expect(changesSubject(n('Oh sure. Anyway, the colours'))).toBe(true);
    expect(changesSubject(n('Sure, because the warranty covers it'))).toBe(false);
    expect(keepsTheirCondition(n("If Mark's on board, we start Monday"))).toBe(true);
  });

  it('read the options a rep lays out', () => {
    expect(distinctPrices('The basic is nine thousand and the premium is fifteen thousand.')).toEqual([
      'nine thousand',
      'fifteen thousand',
    ]);
    expect(distinctPrices('About four hundred eighty square feet.')).toEqual([]);
    expect(choiceMarkers(n('Option one is a patch, option two is a full tear-off'))).toBe(2 + ORDINAL_BONUS);
    expect(countedChoices(n('There are three ways to go here'))).toBe(3);
    expect(countedChoices(n('There is a way to go here'))).toBe(0);
    expect(wordsAroundFigure('We can do it for nine thousand all in.', 'nine thousand')).toBe(
      'we can do it for nine thousand all in',
    );
  });

  it('read discovery questions', () => {
    expect(questionForm("How's the house feeling these days?", 'closed')).toBe('open');
    expect(questionForm('Where is the leak?', 'closed')).toBe('probe');
    expect(questionForm('Is it leaking?', 'closed')).toBe('yesno');
    expect(narrowsToMenu('Is it energy, looks, noise?')).toBe(true);
    expect(narrowsToMenu('Is it noise, the bills, anything?')).toBe(false);
    expect(runOnOpenQuestions('okay so tell me what happened with the roof')).toEqual([
      'tell me what happened with the roof',
    ]);
  });

  it('read rapport and the next step', () => {
    expect(isNumberWord('twenty-five')).toBe(true);
    expect(isNumberWord('roof')).toBe(false);
    expect(SHARES_CONCERN.test(n("I'm worried about the mess"))).toBe(true);
    expect(NAMES_DAY.test(n('How about Thursday?'))).toBe(true);
    expect(withoutWellWishes(n('have a great weekend see you thursday'))).not.toContain('weekend');
    const routine = 'The crew texts you every Friday. See you Monday at nine.';
    expect(withoutRoutine(routine, n(routine))).toBe('see you monday at nine');
    expect(namesDayBackFirst(n('How about Thursday?'), n('Thursday works'))).toBe(true);
    expect(namesDayBackFirst(n('How about Thursday?'), n('I am not sure about Thursday'))).toBe(false);
    expect(repliesWithRepsDay(n('Thursday at six, yeah'), n('Thursday at six?'))).toBe(true);
    expect(opensWithNo(n('No, not tonight'))).toBe(true);
    expect(opensWithNo(n('Nothing wrong with it'))).toBe(false);
    expect(isSpanDay('this week')).toBe(true);
    expect(isSpanDay('tuesday')).toBe(false);
  });

  it('tell an English call from another language', () => {
    expect(englishShare(['So how is the roof holding up for you and the kids?'])).toBeGreaterThan(0.3);
    expect(englishShare(['Buenos días, señora, vengo por el techo'])).toBeLessThan(0.12);
    expect(englishShare([])).toBe(1);
  });

  it("read a model's coaching reply and the coaching's own words", () => {
    expect(coachingFromReply('Sure! Here it is:\n\n**Summary**\nGood call.')).toBe('**Summary**\nGood call.');
    expect(coachingFromReply('```markdown\n## Summary\nHi\n```')).toBe('## Summary\nHi');
    expect(quotedLinesOf('What worked:\n> "Does Tuesday work for you both..."\nKeep it.')).toEqual([
      'does tuesday work for you both',
    ]);
    expect(namesOfPeopleIn('In Needs Analysis, ask Linda what Tuesday means to her.')).toEqual(['Linda']);
    expect(countsIn('You presented three options and asked 11 questions, 4 of them open.')).toEqual([
      { n: 3, noun: 'option' },
      { n: 11, noun: 'question' },
      { n: 4, noun: 'open question' },
    ]);
  });
});
