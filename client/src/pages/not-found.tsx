import { SearchX } from 'lucide-react';
import { Link } from 'wouter';
import { Card, CardContent } from '@client/components/ui/card';
import { useDocumentTitle } from '@client/lib/use-document-title';

/** Any unknown address: said for a rep, with the way back to both tools. */
export function NotFoundPage() {
  useDocumentTitle('Page not found');
  return (
    <div className="flex min-h-[50vh] items-center justify-center">
      <Card className="w-full max-w-md">
        <CardContent className="space-y-4 pt-6 sm:pt-6">
          <div className="flex items-center gap-2">
            <SearchX className="size-8 text-slate-500" aria-hidden="true" />
            <h1 className="text-2xl font-bold text-slate-900">We couldn&apos;t find that page</h1>
          </div>
          <p className="text-slate-600">
            The link may be old or mistyped. Pick up where you want to from here:
          </p>
          <ul className="grid gap-2 sm:grid-cols-2">
            <li>
              <Link
                href="/"
                className="flex min-h-11 items-center justify-center rounded-lg bg-brand-600 px-4 font-medium text-white hover:bg-brand-700"
              >
                Practise a role-play
              </Link>
            </li>
            <li>
              <Link
                href="/audio"
                className="flex min-h-11 items-center justify-center rounded-lg border border-slate-300 px-4 font-medium text-slate-800 hover:bg-slate-50"
              >
                Analyse a call recording
              </Link>
            </li>
          </ul>
        </CardContent>
      </Card>
    </div>
  );
}
