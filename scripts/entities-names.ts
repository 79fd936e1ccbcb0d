import { writeFileSync } from 'node:fs';
import nlp from 'compromise';

/**
 * Writes server/understanding/entities/names.json: the first names compromise knows (its
 * lexicon's FirstName, MaleName, FemaleName and Person words), so the people reader can tell
 * "my wife karen" and "gotta show jamal the pics" from ordinary words in lowercase text without
 * loading compromise at run time.   npx tsx scripts/entities-names.ts
 */

const lexicon = (
  nlp as unknown as { world(): { model: { one: { lexicon: Record<string, unknown> } } } }
).world().model.one.lexicon;
const names = Object.entries(lexicon)
  .filter(
    ([word, tag]) =>
      /^(FirstName|MaleName|FemaleName|Person)$/.test(String(tag)) && /^[a-z][a-z'-]+$/.test(word),
  )
  .map(([word]) => word)
  .sort();
const out = new URL('../server/understanding/entities/names.json', import.meta.url);
writeFileSync(
  out,
  `${JSON.stringify({ about: 'First names, lowercase, from the compromise lexicon (scripts/entities-names.ts).', names })}\n`,
);
console.log(`${names.length} names`);
