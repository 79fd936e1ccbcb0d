import { QueryClientProvider } from '@tanstack/react-query';
import { lazy, Suspense, useState } from 'react';
import { Link, Route, Switch } from 'wouter';
import { SiteHeader } from '@client/components/site-header';
import { Toaster } from '@client/components/ui/toaster';
import { TooltipProvider } from '@client/components/ui/tooltip';
import { createQueryClient } from '@client/lib/query-client';
import { confirmLeave } from '@client/lib/leave-guard';
import { NotFoundPage } from '@client/pages/not-found';
import { RoleplayPage } from '@client/pages/roleplay';

// The role-play page is the landing screen; the others load when visited.
const AudioPage = lazy(() => import('@client/pages/audio').then((m) => ({ default: m.AudioPage })));
const DebugPage = lazy(() => import('@client/pages/debug').then((m) => ({ default: m.DebugPage })));
const StatusPage = lazy(() => import('@client/pages/status').then((m) => ({ default: m.StatusPage })));
const ProgressPage = lazy(() => import('@client/pages/progress').then((m) => ({ default: m.ProgressPage })));
const SignInPage = lazy(() => import('@client/pages/sign-in').then((m) => ({ default: m.SignInPage })));
const TeamsPage = lazy(() => import('@client/pages/teams').then((m) => ({ default: m.TeamsPage })));
const JoinPage = lazy(() => import('@client/pages/join').then((m) => ({ default: m.JoinPage })));
const TeamPage = lazy(() => import('@client/pages/team').then((m) => ({ default: m.TeamPage })));
const TeamRepPage = lazy(() => import('@client/pages/team').then((m) => ({ default: m.TeamRepPage })));
const TeamCallPage = lazy(() => import('@client/pages/team').then((m) => ({ default: m.TeamCallPage })));

export function App() {
  const [queryClient] = useState(createQueryClient);
  return (
    <QueryClientProvider client={queryClient}>
      <TooltipProvider>
        <div className="flex min-h-screen flex-col">
          <a
            href="#main"
            className="sr-only z-50 rounded-md bg-white px-3 py-2 focus:not-sr-only focus:absolute focus:top-2 focus:left-2"
          >
            Skip to content
          </a>
          <SiteHeader />
          <main id="main" className="mx-auto w-full max-w-5xl flex-1 px-4 py-6 sm:px-6 sm:py-10">
            <Suspense fallback={<p className="text-sm text-slate-500">Loading…</p>}>
              <Switch>
                <Route path="/" component={RoleplayPage} />
                <Route path="/audio" component={AudioPage} />
                <Route path="/debug" component={DebugPage} />
                <Route path="/status" component={StatusPage} />
                <Route path="/progress" component={ProgressPage} />
                <Route path="/sign-in" component={SignInPage} />
                <Route path="/teams" component={TeamsPage} />
                <Route path="/join" component={JoinPage} />
                <Route path="/teams/:teamId" component={TeamPage} />
                <Route path="/teams/:teamId/reps/:repId" component={TeamRepPage} />
                <Route path="/teams/:teamId/calls/:kind/:callId" component={TeamCallPage} />
                <Route component={NotFoundPage} />
              </Switch>
            </Suspense>
          </main>
          <footer className="border-t border-slate-200 py-6 text-center text-xs text-slate-500">
            Doorstep — practise the pitch, then win the door.
            <Link
              href="/progress"
              onClick={(event) => {
                if (!confirmLeave()) event.preventDefault();
              }}
              className="mx-auto mt-2 flex min-h-11 w-fit items-center px-3 text-sm font-medium text-brand-700 underline-offset-4 hover:underline sm:hidden"
            >
              My progress
            </Link>
          </footer>
        </div>
        <Toaster />
      </TooltipProvider>
    </QueryClientProvider>
  );
}
