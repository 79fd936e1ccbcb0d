import { useSyncExternalStore } from 'react';
import { toastStore } from './toast-store';

export function useToast() {
  const state = useSyncExternalStore(toastStore.subscribe, toastStore.getState, toastStore.getState);
  return { ...state, toast: toastStore.toast, dismiss: toastStore.dismiss };
}

export { toast } from './toast-store';
