import type { EngineInfo } from '../../types';

/**
 * A warm recogniser kept for the length of one call. The call's own voice detection decides
 * where each utterance starts and ends, so the recogniser never guesses at turn boundaries:
 * the final words are ready as soon as the turn ends, and live captions are the running
 * hypothesis instead of fresh decodes of the whole utterance.
 */
export interface LiveRecognizer {
  /** Engine id, e.g. `pocketsphinx-live` or `sherpa-onnx-online`. */
  readonly id: string;
  /** False once the engine has gone (the call then decodes each utterance as a clip). */
  readonly alive: boolean;
  /** Starts an utterance; audio written before the next `end` belongs to it. */
  begin(): void;
  /** 16 kHz mono audio of the current utterance (ignored outside one). */
  write(pcm: Int16Array): void;
  /**
   * The words heard so far in this utterance, or null when the engine did not answer in time.
   * `urgent`: a turn decision waits on it (the rep just fell silent), so an engine that shares
   * the cores among calls serves it before audio of reps who are still talking.
   */
  partial(timeoutMs: number, opts?: { urgent?: boolean }): Promise<string | null>;
  /** Ends the utterance and returns its words, or null when the engine did not answer in time. */
  end(timeoutMs: number): Promise<string | null>;
  close(): void;
}

/** The live recogniser engine chosen at boot; `create` gives each call its own. */
export interface LiveRecognizerFactory {
  /**
   * A warm recogniser for one call, or null when calls decode each utterance as a clip.
   * `activeCalls` (the calls already live on this process) lets it trade accuracy for capacity.
   */
  create(load?: { activeCalls: number }): LiveRecognizer | null;
  info: EngineInfo;
  /** Ends any decoders kept for later calls (server shutdown). */
  close?(): void;
  /** How many decoders are kept warm for the next calls (tests). */
  idleDecoders?(): number;
  /**
   * Makes ready, in the background, recognisers for up to `spares` calls that may follow the
   * `activeCalls` already live, so a burst of new calls does not wait on model loads.
   */
  warm?(spares: number, activeCalls: number): void;
}
