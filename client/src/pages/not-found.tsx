import { AlertCircle } from 'lucide-react';
import { Link } from 'wouter';
import { Card, CardContent } from '@client/components/ui/card';
import { useDocumentTitle } from '@client/lib/use-document-title';

export function NotFoundPage() {
  useDocumentTitle('404 Page Not Found');
  return (
    <div className="flex min-h-[50vh] items-center justify-center">
      <Card className="w-full max-w-md">
        <CardContent className="space-y-4 pt-6 sm:pt-6">
          <div className="flex items-center gap-2">
            <AlertCircle className="size-8 text-red-500" aria-hidden="true" />
            <h1 className="text-2xl font-bold text-slate-900">404 Page Not Found</h1>
          </div>
          <p className="text-sm text-slate-600">Did you forget to add the page to the router?</p>
          <Link href="/" className="text-sm font-medium text-brand-700 hover:underline">
            Back to role-play
          </Link>
        </CardContent>
      </Card>
    </div>
  );
}
