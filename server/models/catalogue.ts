/**
 * The optional engine models: where each comes from, its pinned checksum, and the folder layout
 * the engines look in (stt/<name>/, tts/<name>/, silero-vad/, speaker/). Used by `npm run models` and by the
 * background fetch of the upgrade set at start (server/models/auto.ts).
 */
import path from 'node:path';

export interface ModelEntry {
  id: string;
  /** Which engine uses it. */
  capability:
    'speech-to-text' | 'streaming-speech-to-text' | 'voice-activity' | 'text-to-speech' | 'speaker-embedding';
  description: string;
  url: string;
  /**
   * Pinned SHA-256 of the downloaded file. With `sizeBytes`, the pin every download is checked
   * against; an entry without both is installed only with a pin the operator gives.
   */
  sha256?: string;
  /** Exact size of the downloaded file in bytes: a download is stopped once it passes it. */
  sizeBytes?: number;
  /** 'tar.bz2' archives unpack into `target`; 'file' is saved as `target/<fileName>`. */
  kind: 'tar.bz2' | 'file';
  /** Folder under MODELS_DIR. */
  target: string;
  /** For kind 'file': the name it is saved under. */
  fileName?: string;
  /** A folder the archive creates under target; its presence means installed. */
  creates?: string;
  approxMb: number;
  licence: string;
  /** Installed by a plain `npm run models` (pinned entries only). */
  default?: boolean;
  /**
   * Part of the recommended upgrade set fetched in the background at start (AUTO_MODELS).
   * Only entries with a pinned sha256 may carry it.
   */
  upgrade?: boolean;
}

const SHERPA = 'https://github.com/k2-fsa/sherpa-onnx/releases/download';

/**
 * The catalogue. Add an entry to offer another model; engines find it by folder layout.
 * Checksums and sizes are those of the publisher's release assets (recorded by several
 * independent projects that downloaded and hashed them). An entry without both is listed by
 * `npm run models -- --list` but downloaded only with a pin the operator gives
 * (`--sha256=<hex> --bytes=<size>`), never by default and never automatically.
 */
export const MODEL_CATALOGUE: ModelEntry[] = [
  {
    id: 'whisper-tiny.en',
    capability: 'speech-to-text',
    description: 'Whisper tiny.en (English, fast, much better than PocketSphinx)',
    url: `${SHERPA}/asr-models/sherpa-onnx-whisper-tiny.en.tar.bz2`,
    sha256: '2bd6cf965c8bb3e068ef9fa2191387ee63a9dfa2a4e37582a8109641c20005dd',
    sizeBytes: 118_071_777,
    kind: 'tar.bz2',
    target: 'stt',
    creates: 'sherpa-onnx-whisper-tiny.en',
    approxMb: 113,
    licence: 'MIT (OpenAI Whisper)',
    default: true,
  },
  {
    id: 'whisper-base.en',
    capability: 'speech-to-text',
    description: 'Whisper base.en (English, more accurate, ~2x slower than tiny)',
    url: `${SHERPA}/asr-models/sherpa-onnx-whisper-base.en.tar.bz2`,
    sha256: '475bc7052ce299c007f6d5d5407ba8601f819a2867f6eecee510ed17df581542',
    sizeBytes: 208_576_005,
    kind: 'tar.bz2',
    target: 'stt',
    creates: 'sherpa-onnx-whisper-base.en',
    approxMb: 199,
    licence: 'MIT (OpenAI Whisper)',
    upgrade: true,
  },
  {
    id: 'parakeet-tdt-0.6b-v2',
    capability: 'speech-to-text',
    description: 'NVIDIA Parakeet TDT 0.6B v2, int8 (English, most accurate, word timings)',
    url: `${SHERPA}/asr-models/sherpa-onnx-nemo-parakeet-tdt-0.6b-v2-int8.tar.bz2`,
    kind: 'tar.bz2',
    target: 'stt',
    creates: 'sherpa-onnx-nemo-parakeet-tdt-0.6b-v2-int8',
    approxMb: 480,
    licence: 'CC-BY-4.0 (NVIDIA)',
  },
  {
    id: 'moonshine-tiny',
    capability: 'speech-to-text',
    description: 'Moonshine tiny, int8 (English, small and quick)',
    url: `${SHERPA}/asr-models/sherpa-onnx-moonshine-tiny-en-int8.tar.bz2`,
    kind: 'tar.bz2',
    target: 'stt',
    creates: 'sherpa-onnx-moonshine-tiny-en-int8',
    approxMb: 100,
    licence: 'MIT (Useful Sensors Moonshine)',
  },
  {
    id: 'moonshine-base',
    capability: 'speech-to-text',
    description: 'Moonshine base, int8 (English)',
    url: `${SHERPA}/asr-models/sherpa-onnx-moonshine-base-en-int8.tar.bz2`,
    kind: 'tar.bz2',
    target: 'stt',
    creates: 'sherpa-onnx-moonshine-base-en-int8',
    approxMb: 210,
    licence: 'MIT (Useful Sensors Moonshine)',
  },
  {
    id: 'streaming-zipformer-en-20M',
    capability: 'streaming-speech-to-text',
    description: 'Streaming Zipformer 20M (English live partial transcripts)',
    url: `${SHERPA}/asr-models/sherpa-onnx-streaming-zipformer-en-20M-2023-02-17.tar.bz2`,
    sha256: '9c559283e8498d3fe95913c79ca1cb454bb26281ac2b102b41306c7d752765d9',
    sizeBytes: 127_887_156,
    kind: 'tar.bz2',
    target: 'stt',
    creates: 'sherpa-onnx-streaming-zipformer-en-20M-2023-02-17',
    approxMb: 122,
    licence: 'Apache-2.0 (k2-fsa icefall)',
    upgrade: true,
  },
  {
    id: 'silero-vad',
    capability: 'voice-activity',
    description: 'Silero VAD v5.1.2 (voice activity detection for live calls)',
    url: 'https://github.com/snakers4/silero-vad/raw/v5.1.2/src/silero_vad/data/silero_vad.onnx',
    sha256: '2623a2953f6ff3d2c1e61740c6cdb7168133479b267dfef114a4a3cc5bdd788f',
    sizeBytes: 2_327_524,
    kind: 'file',
    target: 'silero-vad',
    fileName: 'silero_vad_v5.1.2.onnx',
    approxMb: 2,
    licence: 'MIT (Silero)',
    default: true,
  },
  {
    // Not pinned: its checksum has not been computed here, so it is fetched only with a pin
    // given to `npm run models`; never part of the upgrade set.
    id: 'speaker-titanet-small',
    capability: 'speaker-embedding',
    description:
      'NVIDIA NeMo TitaNet small speaker embeddings (tells two voices apart in one-channel recordings)',
    url: `${SHERPA}/speaker-recongition-models/nemo_en_titanet_small.onnx`,
    kind: 'file',
    target: 'speaker',
    fileName: 'nemo_en_titanet_small.onnx',
    approxMb: 38,
    licence: 'CC-BY-4.0 (NVIDIA NeMo TitaNet)',
  },
  {
    // Not pinned (its checksum has not been computed from a trusted copy here): no longer in
    // the default set; `npm run models -- piper-en_US-amy-low --sha256=... --bytes=...`.
    id: 'piper-en_US-amy-low',
    capability: 'text-to-speech',
    description: 'Piper voice en_US amy (low), homeowner voice',
    url: `${SHERPA}/tts-models/vits-piper-en_US-amy-low.tar.bz2`,
    kind: 'tar.bz2',
    target: 'tts',
    creates: 'vits-piper-en_US-amy-low',
    approxMb: 65,
    licence: 'MIT (Piper); voice data CC-BY-4.0',
  },
  {
    id: 'kokoro-int8-en-v0_19',
    capability: 'text-to-speech',
    description: 'Kokoro en v0.19, int8 (11 natural English voices: one per persona)',
    url: `${SHERPA}/tts-models/kokoro-int8-en-v0_19.tar.bz2`,
    sha256: 'c9f0dd393615805b0bab050c340834d5e684e732aec91c0e860cd30e982c08bd',
    sizeBytes: 103_248_205,
    kind: 'tar.bz2',
    target: 'tts',
    creates: 'kokoro-int8-en-v0_19',
    approxMb: 99,
    licence: 'Apache-2.0 (hexgrad Kokoro-82M)',
    upgrade: true,
  },
  {
    id: 'kokoro-en-v0_19',
    capability: 'text-to-speech',
    description: 'Kokoro en v0.19 (natural English voices, full precision, larger)',
    url: `${SHERPA}/tts-models/kokoro-en-v0_19.tar.bz2`,
    sha256: '912804855a04745fa77a30be545b3f9a5d15c4d66db00b88cbcd4921df605ac7',
    sizeBytes: 319_625_534,
    kind: 'tar.bz2',
    target: 'tts',
    creates: 'kokoro-en-v0_19',
    approxMb: 305,
    licence: 'Apache-2.0 (hexgrad Kokoro-82M)',
  },
];

/** Whether an entry carries its checksum and size, so it can be fetched without the operator's pin. */
export function isPinned(entry: ModelEntry): boolean {
  return Boolean(entry.sha256 && entry.sizeBytes);
}

/** The recommended upgrade set fetched in the background at start. */
export function upgradeSet(catalogue: ModelEntry[] = MODEL_CATALOGUE): ModelEntry[] {
  return catalogue.filter((m) => m.upgrade && isPinned(m));
}

/**
 * Where an entry is fetched from. With `baseUrl` (MODELS_BASE_URL, for tests and private mirrors)
 * the file name of the release asset is fetched from that base instead of the publisher.
 */
export function modelUrl(entry: ModelEntry, baseUrl?: string): string {
  if (!baseUrl) return entry.url;
  return `${baseUrl.replace(/\/+$/, '')}/${path.posix.basename(new URL(entry.url).pathname)}`;
}

/** The path whose presence means the entry is installed. */
export function installedPath(modelsDir: string, entry: ModelEntry): string {
  return entry.kind === 'file'
    ? path.join(modelsDir, entry.target, entry.fileName ?? path.basename(new URL(entry.url).pathname))
    : path.join(modelsDir, entry.target, entry.creates ?? entry.id);
}
