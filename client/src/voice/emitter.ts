import type { VoiceEventName, VoiceEvents, VoiceListener } from './types';

/** Typed listeners for VoiceClient implementations; a throwing listener never breaks the others. */
export class VoiceEmitter {
  private listeners = new Map<VoiceEventName, Set<(payload: unknown) => void>>();

  on<K extends VoiceEventName>(event: K, listener: VoiceListener<K>): () => void {
    let set = this.listeners.get(event);
    if (!set) this.listeners.set(event, (set = new Set()));
    const wrapped = listener as (payload: unknown) => void;
    set.add(wrapped);
    return () => {
      set.delete(wrapped);
    };
  }

  emit<K extends VoiceEventName>(
    event: K,
    ...args: VoiceEvents[K] extends void ? [] : [VoiceEvents[K]]
  ): void {
    const set = this.listeners.get(event);
    if (!set) return;
    for (const l of [...set]) {
      try {
        l(args[0]);
      } catch (err) {
        console.error(`voice listener for ${event} failed`, err);
      }
    }
  }

  clear(): void {
    this.listeners.clear();
  }
}
