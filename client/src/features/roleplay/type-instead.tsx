import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { Send } from 'lucide-react';
import { MAX_USER_TEXT_CHARS } from '@client/voice';
import { Button } from '@client/components/ui/button';
import { Input } from '@client/components/ui/input';

/**
 * "Type instead": one finished turn per send, for a noisy kitchen, a quiet office or a broken
 * microphone. The turn goes to the homeowner like a spoken one and comes back in the
 * transcript as the rep's line.
 */
export function TypeInstead({ onSend, autoFocus }: { onSend: (text: string) => void; autoFocus?: boolean }) {
  const id = useId();
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (autoFocus) inputRef.current?.focus();
  }, [autoFocus]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const turn = text.trim();
    if (!turn) {
      setError('Type what you would say, then send it.');
      return;
    }
    try {
      onSend(turn);
      setText('');
      setError(null);
    } catch (err) {
      setError(err instanceof Error ? err.message : 'That could not be sent. Please try again.');
    }
  };

  return (
    <form onSubmit={submit} aria-label="Type your turn" className="w-full" data-testid="type-instead">
      <div className="flex items-center gap-2">
        <label htmlFor={`${id}-turn`} className="sr-only">
          What you say
        </label>
        <Input
          ref={inputRef}
          id={`${id}-turn`}
          value={text}
          maxLength={MAX_USER_TEXT_CHARS}
          placeholder="Type what you would say…"
          autoComplete="off"
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
          onChange={(e) => setText(e.target.value)}
        />
        <Button type="submit" className="shrink-0">
          <Send aria-hidden="true" />
          Send
        </Button>
      </div>
      {error && (
        <p id={`${id}-error`} role="alert" className="mt-1 text-xs text-red-700">
          {error}
        </p>
      )}
    </form>
  );
}
