import type { Config } from '../env';
import { builtHelper } from '../native-helpers';
import { findPocketSphinx } from './stt/pocketsphinx';
import { espeakAvailable } from './tts/espeak';
import type { EngineInfo } from './types';

/** The one command that installs the Debian packages and builds the live-call helpers. */
export const SETUP_COMMAND = 'npm run setup';

/** A piece of the embedded voice engines that is not on this machine. */
export interface MissingSystemEngine {
  /** What is missing, in operator terms (package or helper). */
  piece: string;
  capability: EngineInfo['capability'];
  /** What the app does without it. */
  effect: string;
}

export interface SystemProbe {
  pocketsphinx(): boolean;
  espeak(): boolean;
  sphinxLive(): boolean;
  espeakLive(): boolean;
}

export function systemProbe(config: Config): SystemProbe {
  return {
    pocketsphinx: () => findPocketSphinx({ modelDir: config.POCKETSPHINX_MODEL_DIR }) !== null,
    espeak: () => espeakAvailable(),
    sphinxLive: () => builtHelper('sphinx-live', config.SPHINX_LIVE_PATH) !== null,
    espeakLive: () => builtHelper('espeak-live') !== null,
  };
}

/** Which embedded engine pieces are missing here (empty on a machine set up by `npm install`). */
export function missingSystemEngines(probe: SystemProbe): MissingSystemEngine[] {
  const missing: MissingSystemEngine[] = [];
  if (!probe.pocketsphinx()) {
    missing.push({
      piece: 'PocketSphinx (Debian packages pocketsphinx, pocketsphinx-en-us)',
      capability: 'speech-to-text',
      effect: 'recordings and live calls have no offline recogniser unless a model or service is configured',
    });
  }
  if (!probe.espeak()) {
    missing.push({
      piece: 'espeak-ng (Debian package espeak-ng)',
      capability: 'text-to-speech',
      effect: 'the homeowner cannot speak unless a voice model or service is configured',
    });
  }
  if (!probe.sphinxLive()) {
    missing.push({
      piece: 'the live-call decoder build/sphinx-live',
      capability: 'live-speech-to-text',
      effect: 'live calls decode each utterance as a clip: slower replies, no live captions',
    });
  }
  if (!probe.espeakLive()) {
    missing.push({
      piece: 'the warm voice helper build/espeak-live',
      capability: 'text-to-speech',
      effect: 'a voice process is started per sentence',
    });
  }
  return missing;
}

/**
 * Marks the engines that a missing piece degrades with the command that adds it (for operators:
 * /api/health and the operator page; rep screens never show it) and returns the one log line.
 */
export function annotateMissingEngines(infos: EngineInfo[], missing: MissingSystemEngine[]): string | null {
  if (missing.length === 0) return null;
  for (const info of infos) {
    const gaps = missing.filter((m) => m.capability === info.capability);
    // An enhanced engine (a model or a service) serving the capability makes the gap irrelevant.
    if (gaps.length === 0 || (info.ok && info.quality === 'enhanced')) continue;
    info.missing = gaps.map((g) => `${g.piece}: ${g.effect}`);
    info.installCommand = SETUP_COMMAND;
  }
  return `Embedded voice engines incomplete: missing ${missing.map((m) => m.piece).join('; ')}. Run ${SETUP_COMMAND} to add them.`;
}
