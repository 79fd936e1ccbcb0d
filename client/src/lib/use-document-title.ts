import { useEffect } from 'react';

/** Sets the browser tab title for a screen. */
export function useDocumentTitle(title: string): void {
  useEffect(() => {
    document.title = `${title} · Doorstep`;
  }, [title]);
}
