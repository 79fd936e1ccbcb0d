import { useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Link, useLocation } from 'wouter';
import { LogIn } from 'lucide-react';
import { SIGN_IN_TOKEN_PATTERN } from '@core/accounts';
import { Card, CardContent, CardDescription, CardHeader } from '@client/components/ui/card';
import { Button } from '@client/components/ui/button';
import { Alert, AlertDescription } from '@client/components/ui/alert';
import { errorMessage } from '@client/lib/request';
import { useDocumentTitle } from '@client/lib/use-document-title';
import { signInWithToken } from '@client/features/progress/account-api';
import { pendingInvite } from '@client/features/teams/team-api';

/** The token from the emailed link's fragment (never sent to the server with the page). */
function tokenFromHash(): string | null {
  const m = window.location.hash.match(/token=([^&]+)/);
  return m && SIGN_IN_TOKEN_PATTERN.test(m[1]) ? m[1] : null;
}

/**
 * Where the emailed link lands. Signing in is a button press, not the page load, so a mail
 * scanner that opens links cannot use the link up.
 */
export function SignInPage() {
  useDocumentTitle('Sign in');
  const [token] = useState(tokenFromHash);
  const [, navigate] = useLocation();
  const queryClient = useQueryClient();
  const signIn = useMutation({
    mutationFn: (t: string) => signInWithToken(t),
    onSuccess: async () => {
      // The token is spent: take it out of the address bar and history.
      window.history.replaceState(null, '', '/sign-in');
      await queryClient.invalidateQueries();
      // A rep who opened a team invite before signing in goes back to decide on it.
      navigate(pendingInvite() ? '/join' : '/progress');
    },
  });

  return (
    <div className="mx-auto max-w-md">
      <Card>
        <CardHeader>
          <h1 className="flex items-center gap-2 text-xl font-semibold tracking-tight text-slate-900">
            <LogIn className="size-5 text-brand-600" aria-hidden="true" />
            Sign in to Doorstep
          </h1>
          <CardDescription>See every role-play and call you analyse, on any device.</CardDescription>
        </CardHeader>
        <CardContent className="space-y-4">
          {!token ? (
            <Alert variant="destructive">
              <AlertDescription>
                This sign-in link is incomplete.{' '}
                <Link href="/progress" className="underline">
                  Ask for a new one
                </Link>
                .
              </AlertDescription>
            </Alert>
          ) : (
            <>
              {signIn.isError && (
                <Alert variant="destructive">
                  <AlertDescription>
                    {errorMessage(signIn.error)}{' '}
                    <Link href="/progress" className="underline">
                      Ask for a new link
                    </Link>
                  </AlertDescription>
                </Alert>
              )}
              <Button
                size="lg"
                className="w-full"
                disabled={signIn.isPending || signIn.isError}
                onClick={() => signIn.mutate(token)}
              >
                {signIn.isPending ? 'Signing in…' : 'Sign in'}
              </Button>
            </>
          )}
        </CardContent>
      </Card>
    </div>
  );
}
