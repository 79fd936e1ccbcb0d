import fs from 'node:fs';
import path from 'node:path';
import type { Speaker } from './types';

/** One labelled line of the corpus (corpus/GUIDE.md). */
export interface CorpusLine {
  id: string;
  author: string;
  speaker: Speaker;
  style: 'clean' | 'typed' | 'recogniser';
  trade: 'windows' | 'hvac' | 'roofing' | 'flooring' | 'general';
  context?: string;
  text: string;
  acts: string[];
  topics: string[];
  entities: {
    money: { text: string; value?: number; min?: number; max?: number; per?: string | null; role: string }[];
    times: {
      text: string;
      day: string | null;
      part: string | null;
      time: string | null;
      ampm?: string | null;
      role: string;
    }[];
    people: {
      text: string;
      name: string | null;
      relation: string;
      status?: string | null;
      decides?: boolean | null;
    }[];
  };
}

export const CORPUS_DIR = path.join(import.meta.dirname, 'corpus');

/** Acts that, asked with a question mark, are questions too (GUIDE.md, "Stacking"). */
const ASKED_AS_QUESTIONS = ['proposal', 'request', 'offer', 'check', 'trial_close', 'buying_signal'];

/**
 * The guide's stacking rule applied to lines written before it was spelled out: an offer,
 * request, proposal, check, trial close or buying signal that ends on a question mark is also a
 * (closed) question.
 */
export function conform(line: CorpusLine): CorpusLine {
  const asked = line.text.trim().endsWith('?');
  const stacked = line.acts.some((a) => ASKED_AS_QUESTIONS.includes(a.split(':')[0]));
  if (!asked || !stacked || line.acts.some((a) => a.startsWith('question:'))) return line;
  return { ...line, acts: [...line.acts, 'question:closed'] };
}

/** Every line of every `*.jsonl` file in the folders given (the corpus folder by default). */
export function loadCorpus(dirs: readonly string[] = [CORPUS_DIR]): CorpusLine[] {
  const lines: CorpusLine[] = [];
  for (const dir of dirs) {
    const files = fs.statSync(dir).isDirectory()
      ? fs
          .readdirSync(dir)
          .filter((f) => f.endsWith('.jsonl'))
          .sort()
          .map((f) => path.join(dir, f))
      : [dir];
    for (const file of files)
      for (const row of fs.readFileSync(file, 'utf8').split('\n'))
        if (row.trim()) lines.push(conform(JSON.parse(row) as CorpusLine));
  }
  return lines;
}
