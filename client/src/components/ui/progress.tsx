import { cn } from '@client/lib/utils';

export interface ProgressProps {
  /** 0..100 */
  value: number;
  label: string;
  className?: string;
  indicatorClassName?: string;
}

/** A determinate progress bar; `label` is its accessible name. */
export function Progress({ value, label, className, indicatorClassName }: ProgressProps) {
  const clamped = Math.max(0, Math.min(100, Number.isFinite(value) ? value : 0));
  return (
    <div
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={Math.round(clamped)}
      className={cn('relative h-2 w-full overflow-hidden rounded-full bg-slate-200', className)}
    >
      <div
        className={cn('h-full rounded-full bg-brand-600 transition-[width] duration-300', indicatorClassName)}
        style={{ width: `${clamped}%` }}
      />
    </div>
  );
}
