/** What /api/health and the UI say about the engine serving a capability. */
export interface EngineInfo {
  capability:
    | 'database'
    | 'speech-to-text'
    | 'voice-activity'
    | 'live-speech-to-text'
    | 'homeowner'
    | 'coach'
    | 'text-to-speech'
    | 'voice'
    | 'storage'
    | 'jobs'
    | 'email'
    | 'lead-capture'
    | 'audio-decode';
  /** Stable id, e.g. 'pocketsphinx', 'sherpa-onnx:whisper-base.en', 'openai'. */
  engine: string;
  /** Human label shown in the page, e.g. 'Offline speech engine (PocketSphinx)'. */
  label: string;
  /** Why this engine was chosen (config, fallback, model missing...). */
  reason: string;
  /** 'basic' for the embedded offline defaults, 'enhanced' for real models and services. */
  quality: 'basic' | 'enhanced';
  /** How to get a better engine, shown beside basic results. */
  upgradeHint?: string;
  /** Embedded engine pieces missing on this machine, and what that costs (operators only). */
  missing?: string[];
  /** The one command that adds what `missing` lists (operators only; never on rep screens). */
  installCommand?: string;
  ok: boolean;
}
