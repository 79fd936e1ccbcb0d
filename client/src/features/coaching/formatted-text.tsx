import { formatBlocks } from '@core/coaching-format';
import { cn } from '@client/lib/utils';

/** Coaching text: **bold** spans, '>' quote lines and blank-line paragraphs (spec §2). */
export function FormattedText({ content, className }: { content: string; className?: string }) {
  const blocks = formatBlocks(content);
  if (!blocks.length) return null;
  return (
    <div className={cn('space-y-3 text-sm leading-relaxed text-slate-700', className)}>
      {blocks.map((block, i) => {
        const lines = block.lines.map((spans, j) => (
          <span key={j} className="block">
            {spans.map((span, k) =>
              span.bold ? (
                <strong key={k} className="font-semibold text-slate-900">
                  {span.text}
                </strong>
              ) : (
                <span key={k}>{span.text}</span>
              ),
            )}
          </span>
        ));
        return block.kind === 'quote' ? (
          <blockquote
            key={i}
            className="border-l-4 border-brand-200 bg-brand-50/60 py-2 pr-3 pl-4 text-slate-800 italic"
          >
            {lines}
          </blockquote>
        ) : (
          <p key={i}>{lines}</p>
        );
      })}
    </div>
  );
}
