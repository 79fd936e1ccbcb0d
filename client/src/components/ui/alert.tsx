import type { HTMLAttributes } from 'react';
import { cn } from '@client/lib/utils';

const variants = {
  default: 'border-slate-200 bg-white text-slate-900',
  destructive: 'border-red-300 bg-red-50 text-red-800 [&>svg]:text-red-700',
  info: 'border-sky-200 bg-sky-50 text-sky-900 [&>svg]:text-sky-700',
} as const;

export interface AlertProps extends HTMLAttributes<HTMLDivElement> {
  variant?: keyof typeof variants;
}

export function Alert({ className, variant = 'default', role, ...props }: AlertProps) {
  return (
    <div
      role={role ?? (variant === 'destructive' ? 'alert' : 'status')}
      data-variant={variant}
      className={cn(
        'relative w-full rounded-lg border p-4 text-sm [&>svg]:absolute [&>svg]:top-4 [&>svg]:left-4 [&>svg]:size-4 [&>svg~*]:pl-7',
        variants[variant],
        className,
      )}
      {...props}
    />
  );
}

export function AlertTitle({ className, ...props }: HTMLAttributes<HTMLHeadingElement>) {
  return <h3 className={cn('mb-1 font-semibold leading-none', className)} {...props} />;
}

export function AlertDescription({ className, ...props }: HTMLAttributes<HTMLDivElement>) {
  return <div className={cn('text-sm [&_p]:leading-relaxed', className)} {...props} />;
}
