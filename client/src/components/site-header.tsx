import { Link, useRoute } from 'wouter';
import { DoorOpen } from 'lucide-react';
import { confirmLeave } from '@client/lib/leave-guard';
import { cn } from '@client/lib/utils';

function NavLink({ href, children, className }: { href: string; children: string; className?: string }) {
  const [active] = useRoute(href);
  return (
    <Link
      href={href}
      onClick={(event) => {
        if (!confirmLeave()) event.preventDefault();
      }}
      aria-current={active ? 'page' : undefined}
      className={cn(
        'rounded-md px-3 py-2 text-sm font-medium transition-colors',
        'inline-flex min-h-11 items-center',
        active ? 'bg-brand-50 text-brand-800' : 'text-slate-600 hover:bg-slate-100 hover:text-slate-900',
        className,
      )}
    >
      {children}
    </Link>
  );
}

export function SiteHeader() {
  return (
    <header className="sticky top-0 z-40 border-b border-slate-200 bg-white/90 backdrop-blur">
      <div className="mx-auto flex h-14 max-w-5xl items-center justify-between gap-4 px-4 sm:px-6">
        <Link
          href="/"
          onClick={(event) => {
            if (!confirmLeave()) event.preventDefault();
          }}
          className="flex items-center gap-2 font-bold tracking-tight text-slate-900"
        >
          <span className="flex size-8 items-center justify-center rounded-lg bg-brand-600 text-white">
            <DoorOpen className="size-5" aria-hidden="true" />
          </span>
          Doorstep
        </Link>
        <nav aria-label="Main" className="flex items-center gap-1">
          <NavLink href="/">Role-play</NavLink>
          <NavLink href="/audio">Call analysis</NavLink>
          {/* A phone's header has room for the two tools only; there the footer links to it. */}
          <NavLink href="/progress" className="hidden sm:inline-flex">
            My progress
          </NavLink>
        </nav>
      </div>
    </header>
  );
}
