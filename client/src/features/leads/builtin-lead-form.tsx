import { useId } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation } from '@tanstack/react-query';
import { Loader2 } from 'lucide-react';
import type { z } from 'zod';
import { leadFormSchema, MARKETING_OPT_IN_LABEL } from '@core/leads';
import { Button } from '@client/components/ui/button';
import { Input } from '@client/components/ui/input';
import { Label } from '@client/components/ui/label';
import { errorMessage } from '@client/lib/request';
import type { GateSessionKind } from './gate-store';
import { postLead } from './leads-api';
import { sendSummary } from './summary-email';

export const SUMMARY_BUTTON = 'Unlock and email me the summary';

type LeadFormValues = z.input<typeof leadFormSchema>;
type LeadFormOutput = z.output<typeof leadFormSchema>;

/**
 * The built-in email form used when no HubSpot form is configured; posts to /api/leads.
 * The email alone unlocks; coaching tips are a separate, unticked, optional choice.
 */
export function BuiltInLeadForm({
  sessionKind,
  sessionId,
  onUnlocked,
  emailSummary = false,
}: {
  sessionKind: GateSessionKind;
  sessionId: string | null;
  onUnlocked: () => void;
  /**
   * A role-play's one form after the call: the same email unlocks the results and gets the
   * summary sent (POST /api/leads, then POST /api/feedback).
   */
  emailSummary?: boolean;
}) {
  const uid = useId();
  const ids = {
    email: `${uid}-email`,
    name: `${uid}-name`,
    optIn: `${uid}-opt-in`,
    error: `${uid}-error`,
  };
  const form = useForm<LeadFormValues, unknown, LeadFormOutput>({
    resolver: zodResolver(leadFormSchema),
    mode: 'onSubmit',
    defaultValues: { email: '', name: '', marketingOptIn: false },
  });
  const mutation = useMutation({
    mutationFn: async (values: LeadFormOutput) => {
      await postLead({
        email: values.email,
        name: values.name || null,
        marketingOptIn: values.marketingOptIn,
        sessionId: sessionId!,
        sessionKind,
        source: 'builtin',
      });
      // The results unlock either way; whether the email went out shows as "Sent to" or a retry.
      if (emailSummary) await sendSummary(sessionId!, values.email, values.name || null);
    },
    onSuccess: onUnlocked,
  });
  const { errors } = form.formState;

  return (
    <form
      noValidate
      aria-label={emailSummary ? SUMMARY_BUTTON : 'Unlock with your email'}
      className="grid gap-3 text-left"
      onSubmit={form.handleSubmit((values) => mutation.mutate(values))}
    >
      <div className="grid gap-1.5">
        <Label htmlFor={ids.email}>Email</Label>
        <Input
          id={ids.email}
          type="email"
          autoComplete="email"
          placeholder="you@example.com"
          aria-invalid={errors.email ? true : undefined}
          aria-describedby={errors.email ? `${ids.email}-error` : undefined}
          {...form.register('email')}
        />
        {errors.email && (
          <p id={`${ids.email}-error`} className="text-sm text-red-700">
            {errors.email.message}
          </p>
        )}
      </div>
      <div className="grid gap-1.5">
        <Label htmlFor={ids.name}>
          Name <span className="font-normal text-slate-500">(optional)</span>
        </Label>
        <Input
          id={ids.name}
          autoComplete="name"
          placeholder="Your name"
          aria-invalid={errors.name ? true : undefined}
          aria-describedby={errors.name ? `${ids.name}-error` : undefined}
          {...form.register('name')}
        />
        {errors.name && (
          <p id={`${ids.name}-error`} className="text-sm text-red-700">
            {errors.name.message}
          </p>
        )}
      </div>
      <div className="flex items-start gap-2">
        <input
          id={ids.optIn}
          type="checkbox"
          className="mt-0.5 size-4 shrink-0 accent-brand-600"
          {...form.register('marketingOptIn')}
        />
        <Label htmlFor={ids.optIn} className="text-xs leading-snug font-normal text-slate-600">
          {MARKETING_OPT_IN_LABEL}
        </Label>
      </div>
      {mutation.isError && (
        <p id={ids.error} role="alert" className="text-sm text-red-700">
          {errorMessage(mutation.error)}
        </p>
      )}
      <Button type="submit" disabled={mutation.isPending || !sessionId} className="w-full">
        {mutation.isPending && <Loader2 className="animate-spin" aria-hidden="true" />}
        {mutation.isPending ? 'Unlocking...' : emailSummary ? SUMMARY_BUTTON : 'Unlock Full Results'}
      </Button>
    </form>
  );
}
