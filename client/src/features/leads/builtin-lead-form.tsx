import { useId } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation } from '@tanstack/react-query';
import { Loader2 } from 'lucide-react';
import { z } from 'zod';
import { EMAIL_MAX, EMAIL_MESSAGE, NAME_MAX } from '@core/schemas';
import { Button } from '@client/components/ui/button';
import { Input } from '@client/components/ui/input';
import { Label } from '@client/components/ui/label';
import { errorMessage } from '@client/lib/request';
import type { GateSessionKind } from './gate-store';
import { postLead } from './leads-api';

export const CONSENT_LABEL = 'Email me my results and occasional coaching tips. Unsubscribe any time.';
const CONSENT_MESSAGE = 'Please agree to receive your results by email to unlock them.';

const leadFormSchema = z.object({
  email: z
    .string()
    .trim()
    .min(1, 'Email is required.')
    .max(EMAIL_MAX, EMAIL_MESSAGE)
    .pipe(z.email(EMAIL_MESSAGE)),
  name: z.string().trim().max(NAME_MAX, `Name must be at most ${NAME_MAX} characters.`),
  consent: z.boolean().refine((v) => v, CONSENT_MESSAGE),
});
type LeadFormValues = z.input<typeof leadFormSchema>;

/** The built-in email form used when no HubSpot form is configured; posts to /api/leads. */
export function BuiltInLeadForm({
  sessionKind,
  sessionId,
  onUnlocked,
}: {
  sessionKind: GateSessionKind;
  sessionId: string | null;
  onUnlocked: () => void;
}) {
  const uid = useId();
  const ids = {
    email: `${uid}-email`,
    name: `${uid}-name`,
    consent: `${uid}-consent`,
    error: `${uid}-error`,
  };
  const form = useForm<LeadFormValues>({
    resolver: zodResolver(leadFormSchema),
    mode: 'onSubmit',
    defaultValues: { email: '', name: '', consent: false },
  });
  const mutation = useMutation({
    mutationFn: (values: z.output<typeof leadFormSchema>) =>
      postLead({
        email: values.email,
        name: values.name || null,
        consent: true,
        sessionId: sessionId!,
        sessionKind,
        source: 'builtin',
      }),
    onSuccess: onUnlocked,
  });
  const { errors } = form.formState;

  return (
    <form
      noValidate
      aria-label="Unlock with your email"
      className="grid gap-3 text-left"
      onSubmit={form.handleSubmit((values) => mutation.mutate(leadFormSchema.parse(values)))}
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
          id={ids.consent}
          type="checkbox"
          className="mt-0.5 size-4 shrink-0 accent-brand-600"
          aria-invalid={errors.consent ? true : undefined}
          aria-describedby={errors.consent ? `${ids.consent}-error` : undefined}
          {...form.register('consent')}
        />
        <Label htmlFor={ids.consent} className="text-xs leading-snug font-normal text-slate-600">
          {CONSENT_LABEL}
        </Label>
      </div>
      {errors.consent && (
        <p id={`${ids.consent}-error`} className="-mt-1 text-sm text-red-700">
          {errors.consent.message}
        </p>
      )}
      {mutation.isError && (
        <p id={ids.error} role="alert" className="text-sm text-red-700">
          {errorMessage(mutation.error)}
        </p>
      )}
      <Button type="submit" disabled={mutation.isPending || !sessionId} className="w-full">
        {mutation.isPending && <Loader2 className="animate-spin" aria-hidden="true" />}
        {mutation.isPending ? 'Unlocking...' : 'Unlock Full Results'}
      </Button>
    </form>
  );
}
