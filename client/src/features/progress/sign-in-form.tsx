import { useState, type FormEvent } from 'react';
import { useMutation } from '@tanstack/react-query';
import { MailCheck } from 'lucide-react';
import { Button } from '@client/components/ui/button';
import { Input } from '@client/components/ui/input';
import { Label } from '@client/components/ui/label';
import { Alert, AlertDescription } from '@client/components/ui/alert';
import { errorMessage } from '@client/lib/request';
import { askForLink } from './account-api';

/** Asks for a sign-in link by email; then says where to find it. */
export function SignInForm() {
  const [email, setEmail] = useState('');
  const [sentTo, setSentTo] = useState<string | null>(null);
  const ask = useMutation({
    mutationFn: (address: string) => askForLink(address),
    onSuccess: (_res, address) => setSentTo(address),
  });

  if (sentTo) {
    return (
      <div className="space-y-3" role="status">
        <p className="flex items-center gap-2 font-semibold text-slate-900">
          <MailCheck className="size-5 text-brand-600" aria-hidden="true" />
          Check your email
        </p>
        <p className="text-sm text-slate-700">
          We sent a sign-in link to <strong>{sentTo}</strong>. It works once, for 15 minutes. Open it on this
          device or any other.
        </p>
        <Button
          variant="link"
          className="h-auto px-0"
          onClick={() => {
            setSentTo(null);
            ask.reset();
          }}
        >
          Use a different email
        </Button>
      </div>
    );
  }

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (email.trim()) ask.mutate(email.trim());
  };
  return (
    <form onSubmit={submit} className="space-y-3" noValidate>
      <div className="space-y-1.5">
        <Label htmlFor="sign-in-email">Email</Label>
        <Input
          id="sign-in-email"
          type="email"
          autoComplete="email"
          inputMode="email"
          required
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          placeholder="you@example.com"
        />
      </div>
      {ask.isError && (
        <Alert variant="destructive">
          <AlertDescription>{errorMessage(ask.error)}</AlertDescription>
        </Alert>
      )}
      <Button type="submit" className="w-full sm:w-auto" disabled={ask.isPending || !email.trim()}>
        {ask.isPending ? 'Sending…' : 'Email me a sign-in link'}
      </Button>
    </form>
  );
}
