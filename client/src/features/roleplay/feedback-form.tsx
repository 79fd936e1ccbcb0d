import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation } from '@tanstack/react-query';
import { Loader2, Mail } from 'lucide-react';
import type { z } from 'zod';
import { feedbackFormSchema } from '@core/schemas';
import { Button } from '@client/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@client/components/ui/card';
import { Input } from '@client/components/ui/input';
import { Label } from '@client/components/ui/label';
import { toast } from '@client/components/ui/use-toast';
import { apiJson, errorMessage } from '@client/lib/request';

type FeedbackValues = z.input<typeof feedbackFormSchema>;

/** 'Want more detailed feedback on your call?' — name and email, validated on submit. */
export function FeedbackForm({
  sessionId,
  onSubmitted,
}: {
  sessionId: string | null;
  onSubmitted: () => void;
}) {
  const form = useForm<FeedbackValues>({
    resolver: zodResolver(feedbackFormSchema),
    mode: 'onSubmit',
    defaultValues: { name: '', email: '' },
  });
  const mutation = useMutation({
    mutationFn: (values: FeedbackValues) => apiJson('POST', '/api/feedback', { sessionId, ...values }),
    onSuccess: () => {
      toast({
        title: 'Feedback submitted!',
        description: "Thank you for your submission. You'll receive your summary via email.",
      });
      form.reset();
      onSubmitted();
    },
    onError: (error) => {
      toast({ variant: 'destructive', title: 'Submission failed', description: errorMessage(error) });
    },
  });
  const { errors } = form.formState;

  return (
    <Card role="region" aria-labelledby="feedback-form-title">
      <CardHeader>
        <CardTitle id="feedback-form-title" className="flex items-center gap-2">
          <Mail className="size-5 text-brand-600" aria-hidden="true" />
          Want more detailed feedback on your call?
        </CardTitle>
        <CardDescription>Submit the form and get it sent to your email.</CardDescription>
      </CardHeader>
      <CardContent>
        <form
          noValidate
          className="grid gap-4 sm:grid-cols-2"
          onSubmit={form.handleSubmit((values) => mutation.mutate(values))}
        >
          <div className="grid gap-2">
            <Label htmlFor="feedback-name">Name</Label>
            <Input
              id="feedback-name"
              placeholder="Your name"
              autoComplete="name"
              aria-invalid={errors.name ? true : undefined}
              aria-describedby={errors.name ? 'feedback-name-error' : undefined}
              {...form.register('name')}
            />
            {errors.name && (
              <p id="feedback-name-error" className="text-sm text-red-700">
                {errors.name.message}
              </p>
            )}
          </div>
          <div className="grid gap-2">
            <Label htmlFor="feedback-email">Email</Label>
            <Input
              id="feedback-email"
              type="email"
              placeholder="you@example.com"
              autoComplete="email"
              aria-invalid={errors.email ? true : undefined}
              aria-describedby={errors.email ? 'feedback-email-error' : undefined}
              {...form.register('email')}
            />
            {errors.email && (
              <p id="feedback-email-error" className="text-sm text-red-700">
                {errors.email.message}
              </p>
            )}
          </div>
          <div className="sm:col-span-2">
            <Button type="submit" disabled={mutation.isPending} className="w-full sm:w-auto">
              {mutation.isPending && <Loader2 className="animate-spin" aria-hidden="true" />}
              {mutation.isPending ? 'Submitting...' : 'Submit'}
            </Button>
          </div>
        </form>
      </CardContent>
    </Card>
  );
}
