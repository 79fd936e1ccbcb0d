import { useState } from 'react';
import { Info } from 'lucide-react';
import { describeMetrics, isConversationMetrics, type MetricExplanation } from '@core/conversation-metrics';
import { cn } from '@client/lib/utils';

/**
 * Measured conversation metrics shown beside the Speaker Balance on the coaching card.
 * Each row says in words whether it is in the healthy range (never by colour alone), and its
 * help opens on a tap (a 44 px target) below the row, for phones that have no hover.
 * `typed`: a typed call, whose timing metrics measure typing and are left out.
 */
export function MetricsPanel({ metrics, typed = false }: { metrics: unknown; typed?: boolean }) {
  if (!isConversationMetrics(metrics)) return null;
  const rows = describeMetrics(metrics, { typed });
  return (
    <div className="space-y-2">
      <h4 className="text-sm font-semibold text-slate-800">Conversation Metrics</h4>
      {typed && (
        <p className="text-sm text-slate-600" data-testid="typed-metrics-note">
          You typed this call, so timings such as pace and pauses are left out.
        </p>
      )}
      <dl className="divide-y divide-slate-200 rounded-md border border-slate-200 bg-white text-sm">
        {rows.map((row) => (
          <MetricRow key={row.key} row={row} />
        ))}
      </dl>
    </div>
  );
}

export function healthWord(healthy: boolean | null): string | null {
  return healthy === null ? null : healthy ? 'In range' : 'Out of range';
}

function MetricRow({ row }: { row: MetricExplanation }) {
  const [open, setOpen] = useState(false);
  const helpId = `metric-help-${row.key}`;
  const word = healthWord(row.healthy);
  // A dl group: the term, its value, and its help as a second description (valid for axe).
  return (
    <div className="grid grid-cols-[1fr_auto] items-center gap-x-3 px-3 py-1" data-metric={row.key}>
      <dt className="flex items-center text-slate-700">
        {row.label}
        <button
          type="button"
          className="-my-1 ml-0.5 inline-flex size-11 shrink-0 cursor-pointer items-center justify-center rounded-full text-slate-500 hover:bg-slate-100 hover:text-slate-800 focus-visible:outline-2 focus-visible:outline-offset-[-4px] focus-visible:outline-brand-600"
          aria-label={`About ${row.label}`}
          aria-expanded={open}
          aria-controls={helpId}
          onClick={() => setOpen((o) => !o)}
        >
          <Info className="size-4" aria-hidden="true" />
        </button>
      </dt>
      <dd className="text-right font-medium">
        <span className="text-slate-900">{row.value}</span>
        {word && (
          <span
            className={cn(
              'ml-2 inline-block rounded-full px-2 py-0.5 text-xs font-semibold whitespace-nowrap',
              row.healthy ? 'bg-emerald-100 text-emerald-800' : 'bg-amber-100 text-amber-900',
            )}
            data-health={row.healthy ? 'in' : 'out'}
          >
            {word}
          </span>
        )}
      </dd>
      <dd id={helpId} hidden={!open} className="col-span-2 pb-2 text-sm text-slate-600">
        {row.help}
      </dd>
    </div>
  );
}
