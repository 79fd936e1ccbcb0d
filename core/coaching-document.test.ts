import { describe, expect, it } from 'vitest';
import {
  canonicalDocument,
  coachingDocumentSchema,
  coachingText,
  gateDocument,
  storedDocument,
} from './coaching-document';
import {
  GATED_SECTIONS,
  LOCKED_SECTION_TEXT,
  renderCoaching,
  SECTION_KEYS,
  SECTION_TITLES,
  type CoachingDocument,
} from './coaching-format';

const doc: CoachingDocument = {
  summary: 'A warm call.\n\nAsk for the appointment next time.',
  best: { title: 'Warm opener', score: 9, content: 'You greeted them by name.' },
  sections: SECTION_KEYS.map((key, i) => ({
    key,
    title: SECTION_TITLES[key],
    score: 3 + i,
    content: `Advice on ${SECTION_TITLES[key]}.\n> A **better** line for ${key}.`,
  })),
};

describe('the coaching document', () => {
  it('gates by structure: gated sections keep their heading and nothing else', () => {
    const locked = gateDocument(doc, false);
    for (const s of locked.sections) {
      if (GATED_SECTIONS.includes(s.key)) {
        expect(s).toEqual({
          key: s.key,
          title: s.title,
          score: null,
          content: LOCKED_SECTION_TEXT,
          locked: true,
        });
      } else expect(s).toEqual(doc.sections.find((x) => x.key === s.key));
    }
    const text = renderCoaching(locked);
    for (const key of GATED_SECTIONS) expect(text).not.toContain(`Advice on ${SECTION_TITLES[key]}`);
    expect(gateDocument(doc, true)).toBe(doc);
  });

  it('renders as the spec text, and its canonical form reads back from that text unchanged', () => {
    const canonical = canonicalDocument(doc);
    expect(renderCoaching(canonical)).toBe(renderCoaching(doc));
    expect(canonicalDocument(canonical)).toEqual(canonical);
    expect(coachingText(canonical, true)).toBe(renderCoaching(doc));
    expect(coachingDocumentSchema.parse(JSON.parse(JSON.stringify(canonical)))).toEqual(canonical);
  });

  it('reads what is stored: a document, a legacy text, or nothing', () => {
    expect(storedDocument(doc)).toEqual(doc);
    expect(storedDocument({ legacyText: renderCoaching(doc) })).toEqual(canonicalDocument(doc));
    expect(storedDocument({ legacyText: 'plain words' })).toBeNull();
    expect(storedDocument(null)).toBeNull();
    expect(storedDocument({ summary: 3 })).toBeNull();
    expect(coachingText(null, true)).toBeNull();
    expect(coachingText({ legacyText: 'plain words' }, false)).toBe('plain words');
  });
});
