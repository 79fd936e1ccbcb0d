import { TOAST_LIMIT, TOAST_REMOVE_DELAY } from '@core/constants';

/** Toast queue (spec §9): at most TOAST_LIMIT shown; dismissed toasts are removed after TOAST_REMOVE_DELAY. */
export interface ToastData {
  id: string;
  title?: string;
  description?: string;
  variant?: 'default' | 'destructive';
  open: boolean;
}

export type ToastInput = Omit<ToastData, 'id' | 'open'>;

export type ToastAction =
  | { type: 'add'; toast: ToastData }
  | { type: 'update'; toast: Partial<ToastData> & { id: string } }
  | { type: 'dismiss'; id?: string }
  | { type: 'remove'; id?: string };

export interface ToastState {
  toasts: ToastData[];
}

export function toastReducer(state: ToastState, action: ToastAction): ToastState {
  switch (action.type) {
    case 'add':
      return { toasts: [action.toast, ...state.toasts].slice(0, TOAST_LIMIT) };
    case 'update':
      return { toasts: state.toasts.map((t) => (t.id === action.toast.id ? { ...t, ...action.toast } : t)) };
    case 'dismiss':
      return {
        toasts: state.toasts.map((t) =>
          action.id === undefined || t.id === action.id ? { ...t, open: false } : t,
        ),
      };
    case 'remove':
      return { toasts: action.id === undefined ? [] : state.toasts.filter((t) => t.id !== action.id) };
  }
}

type Listener = (state: ToastState) => void;

/** A tiny module-level store so any code (mutations, upload callbacks) can raise a toast. */
export function createToastStore(removeDelay = TOAST_REMOVE_DELAY) {
  let state: ToastState = { toasts: [] };
  let counter = 0;
  const listeners = new Set<Listener>();
  const removalTimers = new Map<string, ReturnType<typeof setTimeout>>();

  const dispatch = (action: ToastAction) => {
    state = toastReducer(state, action);
    for (const l of listeners) l(state);
  };

  const scheduleRemoval = (id: string) => {
    if (removalTimers.has(id)) return;
    removalTimers.set(
      id,
      setTimeout(() => {
        removalTimers.delete(id);
        dispatch({ type: 'remove', id });
      }, removeDelay),
    );
  };

  const dismiss = (id?: string) => {
    const ids = id === undefined ? state.toasts.map((t) => t.id) : [id];
    ids.forEach(scheduleRemoval);
    dispatch({ type: 'dismiss', id });
  };

  const toast = (input: ToastInput) => {
    counter = (counter + 1) % Number.MAX_SAFE_INTEGER;
    const id = String(counter);
    dispatch({ type: 'add', toast: { ...input, id, open: true } });
    return { id, dismiss: () => dismiss(id) };
  };

  return {
    toast,
    dismiss,
    getState: () => state,
    subscribe(listener: Listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
  };
}

export const toastStore = createToastStore();
export const toast = toastStore.toast;
