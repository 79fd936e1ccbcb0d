import { describe, expect, it } from 'vitest';
import { completeness, type Completeness } from './completeness';

const cases: [string, Completeness][] = [
  // Questions: a question word or an auxiliary before its subject, or a tag at the end.
  ['how old is the furnace', 'question'],
  ['so what kind of problems are you having with it', 'question'],
  ['can you tell me a bit about the house', 'question'],
  ['is anyone else part of the decision', 'question'],
  ["what's the weather like", 'question'],
  ['who did you talk to', 'question'],
  ['which company did you go with', 'question'],
  ['how about thursday', 'question'],
  ["it's about ten years old isn't it", 'question'],
  // Statements: a clause with a verb, ending where a clause can end.
  ['we replace the whole unit in one day', 'statement'],
  ['let me show you', 'statement'],
  ['we can set it up', 'statement'],
  ['the system is about fifteen years old', 'statement'],
  // Fragments: finished words without a verb.
  ['about two weeks', 'fragment'],
  ['in eighteen thirteen', 'fragment'],
  // Unfinished: conjunctions, articles, possessives, prepositions, "to", fillers, commas.
  ['we could come out on tuesday and', 'incomplete'],
  ['i was thinking that', 'incomplete'],
  ['how old is the', 'incomplete'],
  ['is that your', 'incomplete'],
  ['i wanted to ask you about', 'incomplete'],
  ['how many of', 'incomplete'],
  ['what would you like to', 'incomplete'],
  ['i was talking to', 'incomplete'],
  ['so um', 'incomplete'],
  ['well because', 'incomplete'],
  ['first of all,', 'incomplete'],
  // Nothing to judge.
  ['', 'unknown'],
  ['okay', 'unknown'],
  ['yeah so', 'incomplete'],
  ['i think we should', 'unknown'],
];

describe('completeness', () => {
  it.each(cases)('"%s" is %s', (text, expected) => {
    expect(completeness(text)).toBe(expected);
  });

  it('reads punctuated (typed) text too', () => {
    expect(completeness('How old is the furnace?')).toBe('question');
    expect(completeness('We replace the unit...')).toBe('incomplete');
  });
});
