import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context';
import { findSession, isSessionId } from '../domain/sessions/data';
import { saveSessionTranscript } from '../domain/sessions/mutations';
import type { EngineInfo } from '../providers/types';
import { cpuCores, defaultMaxLiveCalls } from '../machine';
import { DecodeQueue } from './decode-queue';
import { recordVoiceTurnLatency } from '../observability/metrics';
import { selectLiveRecognizer, type LiveRecognizerFactory } from './live-select';
import { VoiceSession, type VoiceSessionDeps } from './session';
import { selectVad, type VadFactory } from './vad';

/** The parts of a ws socket the route uses (ws ships no types here). */
interface CallSocket {
  readonly readyState: number;
  readonly OPEN: number;
  send(data: string | Buffer): void;
  close(code?: number, reason?: string): void;
  on(event: 'message', listener: (data: Buffer | ArrayBuffer | Buffer[], isBinary: boolean) => void): void;
  on(event: 'close' | 'error', listener: () => void): void;
}

const BUSY_MESSAGE = 'All practice lines are busy right now. Please try again in a minute.';

/** Live calls on this process, for teardown on shutdown and for the benchmark's numbers. */
export const activeVoiceSessions = new Set<VoiceSession>();

function publicEngine(info: EngineInfo) {
  return {
    capability: info.capability,
    engine: info.engine,
    label: info.label,
    quality: info.quality,
    ...(info.upgradeHint ? { upgradeHint: info.upgradeHint } : {}),
  };
}

/** The /api/voice WebSocket: one live role-play call per connection (docs/voice.md). */
export async function registerVoiceRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const decodeQueue = new DecodeQueue();
  const { config } = ctx;
  // Chosen once at boot, so /api/health reports them and every call gets the same engines.
  let vad: VadFactory | null = null;
  let live: LiveRecognizerFactory | null = null;
  try {
    vad = selectVad(config.modelsDir, config.VAD_PROVIDER);
    vad.warm?.(2 * cpuCores());
    live = selectLiveRecognizer({
      modelsDir: config.modelsDir,
      sttEngine: ctx.providers.has('stt') ? ctx.providers.get('stt').id : 'none',
      mode: config.VOICE_STREAMING_STT === 'off' ? 'off' : 'auto',
      sphinxLivePath: config.SPHINX_LIVE_PATH,
      pocketSphinxModelDir: config.POCKETSPHINX_MODEL_DIR,
    });
    ctx.providers.infos.push(vad.info, live.info);
    ctx.log.info({ vad: vad.info.engine, live: live.info.engine }, 'live call engines');
  } catch (err) {
    ctx.log.error({ err }, 'live call engines could not be chosen');
  }

  // Each call can hold a decoder and a core's share of CPU: past the cap, callers hear "busy".
  const maxLiveCalls = config.MAX_LIVE_CALLS ?? defaultMaxLiveCalls();
  ctx.log.info({ maxLiveCalls }, 'live call cap');

  app.addHook('onClose', async () => {
    await Promise.all([...activeVoiceSessions].map((s) => s.handleClose()));
    live?.close?.();
  });

  app.get('/api/voice', { websocket: true }, (socket: CallSocket) => {
    const send = (event: object) => {
      if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(event));
    };
    if (activeVoiceSessions.size >= maxLiveCalls) {
      send({ type: 'error', code: 'busy', message: BUSY_MESSAGE });
      socket.close(1013, 'busy');
      return;
    }
    let deps: VoiceSessionDeps;
    try {
      const providers = ctx.providers;
      if (!vad || !live) throw new Error('The live call engines could not start; see the server log');
      const factory = vad;
      const liveFactory = live;
      const engines = [
        ...(['stt', 'brain', 'tts'] as const)
          .map((k) => providers.info(k))
          .filter((i): i is EngineInfo => Boolean(i))
          .map(publicEngine),
        publicEngine(factory.info),
        publicEngine(liveFactory.info),
      ];
      deps = {
        stt: providers.get('stt'),
        tts: providers.get('tts'),
        brain: providers.get('brain'),
        vad: factory,
        decodeQueue,
        engines,
        log: ctx.log,
        createStream: () => liveFactory.create({ activeCalls: activeVoiceSessions.size - 1 }),
        onTurnLatency: (ms) =>
          recordVoiceTurnLatency(ms, {
            brain: providers.info('brain')?.engine,
            tts: providers.info('tts')?.engine,
          }),
        sessionExists: async (id) => isSessionId(id) && (await findSession(ctx.database.db, id)) !== null,
        saveTranscript: async (id, transcript, durationSec) => {
          const row = await findSession(ctx.database.db, id);
          // The page saves its own copy after the call; never clear coaching already written.
          if (!row || row.coaching) return;
          await saveSessionTranscript(ctx.database.db, id, {
            transcript,
            duration: String(durationSec),
            endedAt: new Date(),
            engines,
          });
        },
      };
    } catch (err) {
      send({
        type: 'error',
        code: 'engine-unavailable',
        message: err instanceof Error ? err.message : String(err),
      });
      socket.close(1011, 'engine-unavailable');
      return;
    }
    const session = new VoiceSession(
      {
        sendJson: (event) => send(event),
        sendAudio: (pcm) => {
          if (socket.readyState === socket.OPEN)
            socket.send(Buffer.from(pcm.buffer, pcm.byteOffset, pcm.byteLength));
        },
        close: (code, reason) => socket.close(code, reason),
      },
      deps,
    );
    activeVoiceSessions.add(session);
    socket.on('message', (data: Buffer | ArrayBuffer | Buffer[], isBinary: boolean) => {
      const buf = Array.isArray(data)
        ? Buffer.concat(data)
        : Buffer.isBuffer(data)
          ? data
          : Buffer.from(data);
      if (isBinary) session.handleBinary(buf);
      else
        void session.handleText(buf.toString('utf8')).catch((err) => {
          ctx.log.error({ err }, 'voice message failed');
        });
    });
    socket.on('close', () => {
      activeVoiceSessions.delete(session);
      void session.handleClose();
    });
    socket.on('error', () => {
      activeVoiceSessions.delete(session);
      void session.handleClose();
    });
  });
}
