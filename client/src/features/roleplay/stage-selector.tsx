import { useState, type ReactNode } from 'react';
import { ChevronDown, Hammer } from 'lucide-react';
import { difficultyLabel, isStage, MAX_DIFFICULTY, PERSONAS, STAGES_BY_DIFFICULTY } from '@core/stages';
import { Badge, type BadgeProps } from '@client/components/ui/badge';
import { Card, CardContent } from '@client/components/ui/card';
import { Collapsible, CollapsibleContent, CollapsibleTrigger } from '@client/components/ui/collapsible';
import { cn } from '@client/lib/utils';

const difficultyVariant: Record<number, BadgeProps['variant']> = {
  1: 'success',
  2: 'info',
  3: 'warning',
  4: 'danger',
  5: 'danger',
};

/**
 * One five-step scale for every trade: filled steps, the step number and the label, so
 * "Moderate" (2) and "Medium" (3) read as neighbours on the same scale.
 */
export function DifficultyBadge({ difficulty }: { difficulty: number }) {
  const label = difficultyLabel(difficulty);
  return (
    <Badge
      variant={difficultyVariant[difficulty] ?? 'secondary'}
      className={cn('gap-1.5', difficulty === 5 && 'bg-red-600 text-white')}
      aria-label={`Difficulty ${difficulty} of ${MAX_DIFFICULTY}: ${label}`}
      role="img"
    >
      <span className="flex gap-0.5" aria-hidden="true">
        {Array.from({ length: MAX_DIFFICULTY }, (_, i) => (
          <span
            key={i}
            className={cn('size-1.5 rounded-full', i < difficulty ? 'bg-current' : 'bg-current opacity-25')}
          />
        ))}
      </span>
      <span aria-hidden="true">
        {difficulty}/{MAX_DIFFICULTY} {label}
      </span>
    </Badge>
  );
}

export function StageSelector({
  stage,
  onSelect,
  disabled,
}: {
  stage: string;
  onSelect: (stage: string) => void;
  disabled?: boolean;
}) {
  const [open, setOpen] = useState(true);
  const unknown = !isStage(stage);
  return (
    <Card>
      <Collapsible open={open} onOpenChange={setOpen}>
        <CollapsibleTrigger className="flex w-full cursor-pointer items-center justify-between gap-3 p-5 text-left sm:px-6">
          <span>
            <span className="block text-lg font-semibold text-slate-900">Set the Stage</span>
            <span className="block text-sm text-slate-600">
              Pick the trade you want to practise, from the easiest homeowner to the hardest.
            </span>
          </span>
          <ChevronDown
            className={cn('size-5 shrink-0 text-slate-500 transition-transform', open && 'rotate-180')}
            aria-hidden="true"
          />
        </CollapsibleTrigger>
        <CollapsibleContent>
          <CardContent>
            <fieldset disabled={disabled} className="disabled:opacity-60">
              <legend className="sr-only">Stage</legend>
              {/* One row per trade on phones (badge beside the name), cards in a row on wider screens. */}
              <div className="grid grid-cols-1 gap-2 sm:grid-cols-3 lg:grid-cols-5">
                {STAGES_BY_DIFFICULTY.map((s) => (
                  <StageOption
                    key={s}
                    value={s}
                    checked={stage === s}
                    onSelect={onSelect}
                    subtitle={PERSONAS[s].name}
                    badge={<DifficultyBadge difficulty={PERSONAS[s].difficulty} />}
                  />
                ))}
                {unknown && (
                  <StageOption
                    value={stage}
                    checked
                    onSelect={onSelect}
                    subtitle="New scenario"
                    badge={<Badge variant="secondary">Coming Soon</Badge>}
                  />
                )}
              </div>
            </fieldset>
          </CardContent>
        </CollapsibleContent>
      </Collapsible>
    </Card>
  );
}

function StageOption({
  value,
  checked,
  onSelect,
  subtitle,
  badge,
}: {
  value: string;
  checked: boolean;
  onSelect: (stage: string) => void;
  subtitle: string;
  badge: ReactNode;
}) {
  return (
    <label
      className={cn(
        'flex cursor-pointer flex-row items-center justify-between gap-2 rounded-lg border px-3 py-2 transition-colors sm:flex-col sm:items-stretch sm:justify-start sm:py-3 has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-brand-600',
        checked
          ? 'border-brand-600 bg-brand-50 ring-1 ring-brand-600'
          : 'border-slate-200 bg-white hover:border-slate-300',
      )}
    >
      <input
        type="radio"
        name="stage"
        value={value}
        checked={checked}
        onChange={() => onSelect(value)}
        className="sr-only"
      />
      <span className="flex items-baseline gap-2 sm:justify-between">
        <span className="font-semibold text-slate-900">{value}</span>
        <span className="text-sm text-slate-600 sm:hidden">{subtitle}</span>
      </span>
      <span className="flex flex-wrap items-center justify-between gap-2 text-sm text-slate-600">
        <span className="hidden sm:inline">{subtitle}</span>
        {badge}
      </span>
    </label>
  );
}

export function ComingSoonPanel({ stage }: { stage: string }) {
  return (
    <Card className="border-dashed" role="region" aria-labelledby="coming-soon-title">
      <CardContent className="flex flex-col items-center gap-3 py-10 text-center sm:py-12">
        <span className="flex size-12 items-center justify-center rounded-full bg-amber-100 text-amber-700">
          <Hammer className="size-6" aria-hidden="true" />
        </span>
        <h2 id="coming-soon-title" className="text-lg font-semibold text-slate-900">
          Coming Soon
        </h2>
        <p className="max-w-md text-sm text-slate-600">
          The {stage} scenario is being developed. Choose one of the available stages above to practise today.
        </p>
      </CardContent>
    </Card>
  );
}
