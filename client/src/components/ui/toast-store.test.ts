import { describe, expect, it, vi } from 'vitest';
import { createToastStore, toastReducer } from './toast-store';

describe('toast store', () => {
  it('shows one toast at a time, the newest', () => {
    const store = createToastStore();
    store.toast({ title: 'Upload successful' });
    store.toast({ title: 'Upload failed', variant: 'destructive' });
    expect(store.getState().toasts.map((t) => t.title)).toEqual(['Upload failed']);
  });

  it('closes a dismissed toast and removes it after the remove delay', () => {
    vi.useFakeTimers();
    try {
      const store = createToastStore(1_000_000);
      const { id, dismiss } = store.toast({ title: 'Feedback submitted!' });
      dismiss();
      expect(store.getState().toasts).toEqual([{ id, title: 'Feedback submitted!', open: false }]);
      vi.advanceTimersByTime(999_999);
      expect(store.getState().toasts).toHaveLength(1);
      vi.advanceTimersByTime(1);
      expect(store.getState().toasts).toHaveLength(0);
    } finally {
      vi.useRealTimers();
    }
  });

  it('updates a toast in place', () => {
    const s = toastReducer(
      { toasts: [{ id: '1', title: 'a', open: true }] },
      { type: 'update', toast: { id: '1', title: 'b' } },
    );
    expect(s.toasts[0].title).toBe('b');
  });
});
