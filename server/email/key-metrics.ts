import { LISTENING_TARGET_PERCENT } from '../../core/constants';
import { speakingBalance } from '../../core/speaking-balance';
import { countWords, finalEntries, type TranscriptEntry } from '../../core/transcript';

export interface KeyMetric {
  label: string;
  value: string;
}

function formatDuration(totalSec: number): string {
  const sec = Math.max(0, Math.round(totalSec));
  return `${Math.floor(sec / 60)}:${String(sec % 60).padStart(2, '0')}`;
}

/** Whole seconds from the stored duration string, else from the first and last entry times. */
function durationSec(duration: string | null | undefined, entries: TranscriptEntry[]): number | null {
  if (duration && /^\d+$/.test(duration)) return Number(duration);
  if (entries.length < 2) return null;
  const times = entries.map((e) => e.timestamp);
  return (Math.max(...times) - Math.min(...times)) / 1000;
}

/**
 * The conversation numbers a rep can act on, measured from the saved transcript so the
 * email always agrees with what was said (whatever engine wrote the coaching).
 */
export function keyMetrics(
  transcript: TranscriptEntry[],
  opts: { duration?: string | null; personaName: string },
): KeyMetric[] {
  const entries = finalEntries(transcript);
  if (!entries.length) return [];
  const metrics: KeyMetric[] = [];
  const seconds = durationSec(opts.duration, entries);
  if (seconds !== null) metrics.push({ label: 'Call length', value: formatDuration(seconds) });

  const balance = speakingBalance(entries);
  metrics.push({
    label: 'Speaking balance',
    value: `You ${balance.userPercent}% / ${opts.personaName} ${balance.personaPercent}% (target: ${opts.personaName} ${LISTENING_TARGET_PERCENT}%+)`,
  });

  const userTurns = entries.filter((e) => e.role === 'user');
  const questions = userTurns.reduce((n, e) => n + (e.transcript.match(/\?/g)?.length ?? 0), 0);
  metrics.push({ label: 'Questions you asked', value: String(questions) });
  const longest = userTurns.reduce((n, e) => Math.max(n, countWords(e.transcript)), 0);
  metrics.push({ label: 'Your longest turn', value: `${longest} words` });
  metrics.push({ label: 'Your turns', value: String(userTurns.length) });
  return metrics;
}
