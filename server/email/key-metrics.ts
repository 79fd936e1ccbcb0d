import { LISTENING_TARGET_PERCENT } from '../../core/constants';
import { conversationMetrics } from '../understanding/metrics';
import { describeMetrics, isConversationMetrics } from '../../core/conversation-metrics';
import { speakingBalance } from '../../core/speaking-balance';
import { finalEntries, type TranscriptEntry } from '../../core/transcript';

export interface KeyMetric {
  label: string;
  value: string;
  /** Whether the value is in its healthy range; null when that cannot be judged. */
  healthy: boolean | null;
}

function formatDuration(totalSec: number): string {
  const sec = Math.max(0, Math.round(totalSec));
  return `${Math.floor(sec / 60)}:${String(sec % 60).padStart(2, '0')}`;
}

const wholeSeconds = (duration: string | null | undefined) =>
  duration && /^\d+$/.test(duration) && Number(duration) > 0 ? Number(duration) : undefined;

/**
 * The conversation numbers a rep can act on. They come from the same measurement and the same
 * wording as the coaching card and the PDF (core/conversation-metrics.ts); the stored metrics
 * are used when present, else they are measured from the saved transcript.
 */
export function keyMetrics(
  transcript: TranscriptEntry[],
  opts: { duration?: string | null; personaName: string; stored?: unknown },
): KeyMetric[] {
  const entries = finalEntries(transcript);
  if (!entries.length && !isConversationMetrics(opts.stored)) return [];
  const metrics = isConversationMetrics(opts.stored)
    ? opts.stored
    : conversationMetrics(entries, { durationSec: wholeSeconds(opts.duration) });

  const rows: KeyMetric[] = [];
  if (metrics.durationSec !== null) {
    rows.push({ label: 'Call length', value: formatDuration(metrics.durationSec), healthy: null });
  }
  if (entries.length) {
    const balance = speakingBalance(entries);
    rows.push({
      label: 'Speaking balance',
      value: `You ${balance.userPercent}% / ${opts.personaName} ${balance.personaPercent}% (target: ${opts.personaName} ${LISTENING_TARGET_PERCENT}%+)`,
      healthy: balance.goodListening,
    });
  }
  for (const m of describeMetrics(metrics)) rows.push({ label: m.label, value: m.value, healthy: m.healthy });
  return rows;
}
