import type { HTMLAttributes } from 'react';
import { cn } from '@client/lib/utils';

const variants = {
  default: 'border-transparent bg-brand-600 text-white',
  secondary: 'border-transparent bg-slate-100 text-slate-800',
  outline: 'border-slate-300 text-slate-700',
  success: 'border-transparent bg-emerald-100 text-emerald-800',
  warning: 'border-transparent bg-amber-100 text-amber-900',
  danger: 'border-transparent bg-red-100 text-red-800',
  info: 'border-transparent bg-sky-100 text-sky-800',
} as const;

export interface BadgeProps extends HTMLAttributes<HTMLSpanElement> {
  variant?: keyof typeof variants;
}

export function Badge({ className, variant = 'default', ...props }: BadgeProps) {
  return (
    <span
      className={cn(
        'inline-flex items-center rounded-full border px-2.5 py-0.5 text-xs font-semibold whitespace-nowrap',
        variants[variant],
        className,
      )}
      {...props}
    />
  );
}
