import { Info } from 'lucide-react';
import { describeMetrics, isConversationMetrics, type MetricExplanation } from '@core/conversation-metrics';
import { Tooltip, TooltipContent, TooltipTrigger } from '@client/components/ui/tooltip';
import { cn } from '@client/lib/utils';

/**
 * Measured conversation metrics shown beside the Speaker Balance on the coaching card.
 * Each row explains itself in a tooltip (what it means and its healthy range); the same
 * text is also tied to the row for screen readers, which may never open a tooltip.
 */
export function MetricsPanel({ metrics }: { metrics: unknown }) {
  if (!isConversationMetrics(metrics)) return null;
  const rows = describeMetrics(metrics);
  return (
    <div className="space-y-2">
      <h4 className="text-sm font-semibold text-slate-800">Conversation Metrics</h4>
      <dl className="divide-y divide-slate-200 rounded-md border border-slate-200 bg-white text-sm">
        {rows.map((row) => (
          <MetricRow key={row.key} row={row} />
        ))}
      </dl>
    </div>
  );
}

function MetricRow({ row }: { row: MetricExplanation }) {
  const helpId = `metric-help-${row.key}`;
  const status =
    row.healthy === null
      ? 'not measured'
      : row.healthy
        ? 'in the healthy range'
        : 'outside the healthy range';
  return (
    <div className="flex items-start justify-between gap-3 px-3 py-1.5" data-metric={row.key}>
      <dt className="flex items-center gap-1 text-slate-600">
        {row.label}
        <Tooltip>
          <TooltipTrigger asChild>
            <button
              type="button"
              className="rounded-full text-slate-400 hover:text-slate-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600"
              aria-label={`About ${row.label}`}
              aria-describedby={helpId}
            >
              <Info className="h-3.5 w-3.5" aria-hidden="true" />
            </button>
          </TooltipTrigger>
          <TooltipContent side="top">{row.help}</TooltipContent>
        </Tooltip>
        <span id={helpId} className="sr-only">
          {row.help}
        </span>
      </dt>
      <dd
        className={cn(
          'text-right font-medium',
          row.healthy === null ? 'text-slate-500' : row.healthy ? 'text-emerald-700' : 'text-amber-700',
        )}
      >
        {row.value}
        <span className="sr-only"> ({status})</span>
      </dd>
    </div>
  );
}
