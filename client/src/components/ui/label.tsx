import type { LabelHTMLAttributes } from 'react';
import { cn } from '@client/lib/utils';

export function Label({ className, ...props }: LabelHTMLAttributes<HTMLLabelElement>) {
  return <label className={cn('text-sm font-medium leading-none text-slate-800', className)} {...props} />;
}
