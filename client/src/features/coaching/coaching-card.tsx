import { useEffect, useMemo, useRef } from 'react';
import { useQuery } from '@tanstack/react-query';
import { AlertCircle, Award, Loader2, Lock } from 'lucide-react';
import { COACHING_QUERY_RETRIES } from '@core/constants';
import {
  GATED_SECTIONS,
  headingPrefix,
  isLockedSection,
  overallScore,
  parseCoaching,
  scoreTone,
  type CoachingSection,
} from '@core/coaching-format';
import { speakingBalance } from '@core/speaking-balance';
import type { TranscriptEntry } from '@core/transcript';
import { Alert, AlertDescription, AlertTitle } from '@client/components/ui/alert';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@client/components/ui/card';
import { errorMessage } from '@client/lib/request';
import { cn } from '@client/lib/utils';
import { UnlockGate } from '@client/features/leads/unlock-gate';
import { MetricsPanel } from './metrics-panel';
import { FormattedText } from './formatted-text';
import {
  coachingQueryKey,
  coachQualityHint,
  NO_SESSION_ID,
  requestCoaching,
  type CoachingResponse,
  type SessionKind,
} from './coaching-api';

export interface CoachingCardProps {
  sessionKind: SessionKind;
  sessionId: string | null;
  /** The conversation, for the Speaker Balance bar. */
  transcript?: TranscriptEntry[];
  /** What the other side is called: the persona's name in role-plays, 'Customer' on uploads. */
  otherName?: string;
  /**
   * Called when parsed coaching is available (reveals the feedback form), and again when the
   * unlock brings the full coaching: `overall` is the six-section mean, null while locked.
   */
  onLoaded?: (info: { overall: number | null; unlocked: boolean }) => void;
  /** The rep typed this call: timing metrics are left out. */
  typed?: boolean;
  className?: string;
}

/** The Coaching Feedback card shared by the role-play, audio and debug pages. */
export function CoachingCard({
  sessionKind,
  sessionId,
  transcript = [],
  otherName = 'Customer',
  onLoaded,
  typed = false,
  className,
}: CoachingCardProps) {
  const query = useQuery<CoachingResponse>({
    queryKey: coachingQueryKey(sessionKind, sessionId),
    queryFn: () => requestCoaching(sessionKind, sessionId),
    retry: (failureCount, error) => error.message !== NO_SESSION_ID && failureCount < COACHING_QUERY_RETRIES,
  });
  // The server sends the coaching as a document; the text is read only from older servers.
  const doc = useMemo(
    () => (query.data ? (query.data.document ?? parseCoaching(query.data.coaching)) : null),
    [query.data],
  );

  useEffect(() => {
    if (!doc) return;
    const unlocked = query.data?.unlocked !== false && !doc.sections.some(isLockedSection);
    onLoaded?.({ overall: unlocked ? overallScore(doc) : null, unlocked });
    // Only the arrival of a parsed document matters here.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [doc]);

  return (
    <Card className={cn('overflow-hidden', className)} aria-labelledby="coaching-title" role="region">
      <CardHeader className="border-b border-slate-100 bg-gradient-to-r from-brand-50 to-white">
        <div className="flex flex-wrap items-start justify-between gap-3">
          <div>
            <CardTitle
              id="coaching-title"
              tabIndex={-1}
              className="flex items-center gap-2 focus:outline-none"
            >
              <Award className="size-5 text-brand-600" aria-hidden="true" />
              Coaching Feedback
            </CardTitle>
            <CardDescription>What went well, and what to sharpen before your next door.</CardDescription>
          </div>
          {/* The overall score averages all six sections, so it waits for the unlock too. */}
          {doc && query.data?.unlocked !== false && <OverallScore value={overallScore(doc)} />}
        </div>
      </CardHeader>
      <CardContent className="pt-5 sm:pt-6">
        {query.isPending && (
          <div role="status" className="flex items-center gap-3 py-8 text-slate-600">
            <Loader2 className="size-5 animate-spin text-brand-600" aria-hidden="true" />
            Generating your coaching feedback...
          </div>
        )}
        {query.isError && (
          <Alert variant="destructive">
            <AlertCircle aria-hidden="true" />
            <AlertTitle>Unable to generate coaching feedback.</AlertTitle>
            <AlertDescription>{errorMessage(query.error)}</AlertDescription>
          </Alert>
        )}
        {query.data && !doc && (
          <Alert variant="destructive">
            <AlertCircle aria-hidden="true" />
            <AlertTitle>Unable to parse coaching feedback.</AlertTitle>
          </Alert>
        )}
        {query.data && doc && (
          <CoachingDocumentView
            response={query.data}
            doc={doc}
            sessionKind={sessionKind}
            sessionId={sessionId}
            transcript={transcript}
            otherName={otherName}
            typed={typed}
          />
        )}
      </CardContent>
    </Card>
  );
}

function OverallScore({ value }: { value: number | null }) {
  if (value === null) return null;
  return (
    <div
      className="rounded-lg border border-slate-200 bg-white px-3 py-2 text-center shadow-xs"
      data-testid="overall-score"
    >
      <div className="text-xs font-medium tracking-wide text-slate-500 uppercase">Overall</div>
      <div className="text-xl font-bold text-slate-900">
        {value}
        <span className="text-sm font-medium text-slate-500">/10</span>
      </div>
    </div>
  );
}

const FIRST_UNLOCKED_ID = 'first-unlocked-section';

const toneClasses = {
  green: 'bg-emerald-100 text-emerald-800 border-emerald-200',
  yellow: 'bg-amber-100 text-amber-900 border-amber-200',
  red: 'bg-red-100 text-red-800 border-red-200',
} as const;

/** The word beside every coloured score, so colour is never the only signal. */
export const SCORE_WORDS = { green: 'Strong', yellow: 'Fair', red: 'Needs work' } as const;

function ScoreBadge({ score }: { score: number | null }) {
  if (score === null) return null;
  const tone = scoreTone(score);
  return (
    <span
      data-tone={tone}
      className={cn(
        'inline-flex shrink-0 items-center rounded-full border px-2.5 py-0.5 text-xs font-semibold',
        toneClasses[tone],
      )}
    >
      Score: {score}/10 · {SCORE_WORDS[tone]}
    </span>
  );
}

function SectionBlock({ section, headingId }: { section: CoachingSection; headingId?: string }) {
  if (isLockedSection(section)) {
    // The server sent only the heading: nothing to score or read until the unlock.
    return (
      <section className="space-y-2 rounded-lg border border-slate-200 p-4" aria-label={section.title}>
        <div className="flex flex-wrap items-center justify-between gap-2">
          <h3 className="font-semibold text-slate-900">{section.title}</h3>
          <span className="inline-flex items-center gap-1 rounded-full border border-slate-200 bg-slate-100 px-2.5 py-0.5 text-xs font-semibold text-slate-600">
            <Lock className="size-3" aria-hidden="true" />
            Locked
          </span>
        </div>
        <p className="text-sm text-slate-500">{section.content}</p>
        <div className="space-y-1.5" aria-hidden="true">
          <div className="h-2.5 w-11/12 rounded bg-slate-200" />
          <div className="h-2.5 w-4/5 rounded bg-slate-200" />
          <div className="h-2.5 w-2/3 rounded bg-slate-200" />
        </div>
      </section>
    );
  }
  return (
    <section className="space-y-2 rounded-lg border border-slate-200 p-4" aria-label={section.title}>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3
          id={headingId}
          tabIndex={headingId ? -1 : undefined}
          className="font-semibold text-slate-900 focus:outline-none"
        >
          <span
            className={section.score !== null && section.score >= 8 ? 'text-emerald-700' : 'text-slate-600'}
          >
            {headingPrefix(section.score)}:
          </span>{' '}
          {section.title}
        </h3>
        <ScoreBadge score={section.score} />
      </div>
      <FormattedText content={section.content} />
    </section>
  );
}

function SpeakerBalance({ transcript, otherName }: { transcript: TranscriptEntry[]; otherName: string }) {
  const balance = speakingBalance(transcript);
  return (
    <div className="space-y-2">
      <h4 className="text-sm font-semibold text-slate-800">Speaker Balance</h4>
      <div
        className="flex h-3 w-full overflow-hidden rounded-full bg-slate-200"
        role="img"
        aria-label={`Speaker Balance: You ${balance.userPercent}%, ${otherName} ${balance.personaPercent}%`}
      >
        <div className="h-full bg-brand-600" style={{ width: `${balance.userPercent}%` }} />
        <div className="h-full bg-amber-400" style={{ width: `${balance.personaPercent}%` }} />
      </div>
      <div className="flex justify-between text-xs font-medium text-slate-600">
        <span>You {balance.userPercent}%</span>
        <span>
          {otherName} {balance.personaPercent}%
        </span>
      </div>
    </div>
  );
}

function CoachingDocumentView({
  response,
  doc,
  sessionKind,
  sessionId,
  transcript,
  otherName,
  typed,
}: {
  typed: boolean;
  response: CoachingResponse;
  doc: NonNullable<ReturnType<typeof parseCoaching>>;
  sessionKind: SessionKind;
  sessionId: string | null;
  transcript: TranscriptEntry[];
  otherName: string;
}) {
  // The server decides: until it has a lead for this session, the gated sections arrive locked.
  const unlocked = response.unlocked !== false && !doc.sections.some(isLockedSection);
  const open = doc.sections.filter((s) => !GATED_SECTIONS.includes(s.key));
  const gated = doc.sections.filter((s) => GATED_SECTIONS.includes(s.key));
  const engine = response.engine;
  // After the unlock, focus moves to the first section it revealed.
  const wasLocked = useRef(!unlocked);
  useEffect(() => {
    if (unlocked && wasLocked.current)
      requestAnimationFrame(() => document.getElementById(FIRST_UNLOCKED_ID)?.focus());
    wasLocked.current = !unlocked;
  }, [unlocked]);

  return (
    <div className="space-y-5">
      <section aria-label="Summary" className="space-y-4 rounded-lg bg-slate-50 p-4">
        <h3 className="font-semibold text-slate-900">Summary</h3>
        <FormattedText content={doc.summary} />
        <div className="grid gap-4 md:grid-cols-2">
          <SpeakerBalance transcript={transcript} otherName={otherName} />
          <MetricsPanel metrics={response.metrics} typed={typed} />
        </div>
      </section>

      {doc.best && (
        <section
          aria-label="Best"
          className="space-y-2 rounded-lg border border-emerald-200 bg-emerald-50/60 p-4"
        >
          <div className="flex flex-wrap items-center justify-between gap-2">
            <h3 className="font-semibold text-slate-900">
              <span className="text-emerald-700">Best:</span> {doc.best.title}
            </h3>
            <ScoreBadge score={doc.best.score} />
          </div>
          <FormattedText content={doc.best.content} />
        </section>
      )}

      {open.map((s) => (
        <SectionBlock key={s.key} section={s} />
      ))}

      {gated.length > 0 && (
        <div className="grid">
          <div
            data-testid="gated-sections"
            inert={!unlocked}
            aria-hidden={unlocked ? undefined : true}
            className={cn(
              'space-y-5 [grid-area:1/1]',
              !unlocked && 'pointer-events-none blur-sm select-none',
            )}
          >
            {gated.map((s, i) => (
              <SectionBlock
                key={s.key}
                section={s}
                headingId={i === 0 && unlocked ? FIRST_UNLOCKED_ID : undefined}
              />
            ))}
          </div>
          {!unlocked && (
            <div className="z-10 flex items-center justify-center p-2 [grid-area:1/1] sm:p-6">
              <div className="w-full max-w-md">
                <UnlockGate sessionKind={sessionKind} sessionId={sessionId} />
              </div>
            </div>
          )}
        </div>
      )}

      <div className="space-y-1 border-t border-slate-100 pt-4 text-xs text-slate-500">
        <p data-testid="coach-quality">{coachQualityHint(engine?.quality)}</p>
        {/* A fallback answered; why is for operators (the status page), not for reps. */}
        {response.note && <p>Our backup coach wrote this feedback.</p>}
      </div>
    </div>
  );
}
