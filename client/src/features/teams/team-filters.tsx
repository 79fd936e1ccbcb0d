import { useLocation, useSearch } from 'wouter';
import { STAGES } from '@core/stages';
import type { TeamFilter } from '@core/teams';
import { Label } from '@client/components/ui/label';
import { Button } from '@client/components/ui/button';
import { filterQuery } from './team-api';

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** The team pages' filter, kept in the address (so a rep's page and the CSV use the same one). */
export function filterFromSearch(search: string): TeamFilter {
  const params = new URLSearchParams(search);
  const stage = params.get('stage');
  const from = params.get('from');
  const to = params.get('to');
  return {
    ...(stage && (STAGES as readonly string[]).includes(stage)
      ? { stage: stage as TeamFilter['stage'] }
      : {}),
    ...(from && DATE.test(from) ? { from } : {}),
    ...(to && DATE.test(to) ? { to } : {}),
  };
}

export function useTeamFilter(): [TeamFilter, (next: TeamFilter) => void] {
  const search = useSearch();
  const [location, navigate] = useLocation();
  const filter = filterFromSearch(search);
  return [filter, (next) => navigate(`${location}${filterQuery(next)}`, { replace: true })];
}

const fieldClass =
  'h-11 w-full rounded-md border border-slate-300 bg-white px-3 text-sm text-slate-900 focus-visible:outline-2 focus-visible:outline-brand-600';

export function TeamFilters({
  filter,
  onChange,
}: {
  filter: TeamFilter;
  onChange: (next: TeamFilter) => void;
}) {
  const set = (patch: Partial<TeamFilter>) => {
    const next = { ...filter, ...patch };
    for (const key of Object.keys(next) as (keyof TeamFilter)[]) if (!next[key]) delete next[key];
    onChange(next);
  };
  return (
    <form
      className="grid grid-cols-2 gap-3 sm:grid-cols-4 sm:items-end"
      aria-label="Filters"
      onSubmit={(e) => e.preventDefault()}
    >
      <div className="col-span-2 space-y-1.5 sm:col-span-1">
        <Label htmlFor="filter-trade">Trade</Label>
        <select
          id="filter-trade"
          className={fieldClass}
          value={filter.stage ?? ''}
          onChange={(e) => set({ stage: (e.target.value || undefined) as TeamFilter['stage'] })}
        >
          <option value="">All trades</option>
          {STAGES.map((s) => (
            <option key={s} value={s}>
              {s}
            </option>
          ))}
        </select>
      </div>
      <div className="space-y-1.5">
        <Label htmlFor="filter-from">From</Label>
        <input
          id="filter-from"
          type="date"
          className={fieldClass}
          value={filter.from ?? ''}
          max={filter.to}
          onChange={(e) => set({ from: e.target.value || undefined })}
        />
      </div>
      <div className="space-y-1.5">
        <Label htmlFor="filter-to">To</Label>
        <input
          id="filter-to"
          type="date"
          className={fieldClass}
          value={filter.to ?? ''}
          min={filter.from}
          onChange={(e) => set({ to: e.target.value || undefined })}
        />
      </div>
      <Button
        type="button"
        variant="ghost"
        className="col-span-2 min-h-11 sm:col-span-1"
        disabled={!filter.stage && !filter.from && !filter.to}
        onClick={() => onChange({})}
      >
        Clear filters
      </Button>
    </form>
  );
}
