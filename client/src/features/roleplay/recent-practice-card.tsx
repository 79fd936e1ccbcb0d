import { useSyncExternalStore } from 'react';
import { Link } from 'wouter';
import { History, RotateCcw } from 'lucide-react';
import { isStage } from '@core/stages';
import { Card, CardContent, CardHeader, CardTitle } from '@client/components/ui/card';
import {
  practiceUrl,
  readRecentPractice,
  RECENT_PRACTICE_KEY,
  subscribeRecentPractice,
  type PracticeEntry,
} from './recent-practice';

// useSyncExternalStore needs a stable snapshot: re-read only when the stored text changes.
let cachedText: string | null = null;
let cachedList: PracticeEntry[] = [];
function snapshot(): PracticeEntry[] {
  let text: string | null = null;
  try {
    text = window.localStorage.getItem(RECENT_PRACTICE_KEY);
  } catch {
    text = null;
  }
  if (text !== cachedText) {
    cachedText = text;
    cachedList = readRecentPractice();
  }
  return cachedList;
}
const EMPTY: PracticeEntry[] = [];

function formatWhen(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  return d.toLocaleString(undefined, { month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit' });
}

/** "Your recent practice" on the role-play page: past sessions on this device, each with a link. */
export function RecentPracticeCard({ onPractiseAgain }: { onPractiseAgain: (stage: string) => void }) {
  const entries = useSyncExternalStore(subscribeRecentPractice, snapshot, () => EMPTY);
  if (!entries.length) return null;
  return (
    <Card role="region" aria-labelledby="recent-practice-title">
      <CardHeader className="pb-3">
        <CardTitle id="recent-practice-title" className="flex items-center gap-2">
          <History className="size-5 text-brand-600" aria-hidden="true" />
          Your recent practice
        </CardTitle>
      </CardHeader>
      <CardContent>
        <ul className="divide-y divide-slate-200" data-testid="recent-practice">
          {entries.map((e) => (
            <li
              key={`${e.kind}-${e.id}`}
              className="flex flex-wrap items-center justify-between gap-2 py-2.5"
            >
              <Link href={practiceUrl(e)} className="min-w-0 text-sm hover:underline">
                <span className="font-medium text-brand-800">
                  {e.kind === 'audio' ? 'Call analysis' : `${e.stage} role-play`}
                </span>
                <span className="text-slate-600"> · {formatWhen(e.at)}</span>
                <span className="text-slate-600">
                  {' · '}
                  {e.overall === null ? 'Overall score after unlock' : `Overall ${e.overall}/10`}
                </span>
              </Link>
              {e.kind === 'roleplay' && isStage(e.stage) && (
                <button
                  type="button"
                  onClick={() => onPractiseAgain(e.stage)}
                  className="inline-flex cursor-pointer items-center gap-1 rounded-md px-2 py-1 text-sm font-medium text-brand-700 hover:bg-brand-50"
                  aria-label={`Practise again: ${e.stage}`}
                >
                  <RotateCcw className="size-3.5" aria-hidden="true" />
                  Practise again
                </button>
              )}
            </li>
          ))}
        </ul>
      </CardContent>
    </Card>
  );
}
