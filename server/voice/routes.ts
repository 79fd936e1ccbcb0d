import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../context';
import { beginCall, saveCallTranscript } from '../domain/sessions/service';
import type { EngineInfo } from '../providers/types';
import { cpuCores, defaultMaxLiveCalls, defaultMaxTextCalls } from '../machine';
import { DecodeQueue } from './decode-queue';
import { recordVoiceTurnLatency, trackLiveCall } from '../observability/metrics';
import { limitConfig } from '../http/route';
import { HttpError } from '../errors';
import type { Config } from '../env';
import { VoiceSession, type VoiceSessionDeps } from './session';

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
export const tooManyCallsMessage = (max: number) =>
  `You already have ${max === 1 ? 'a practice call' : `${max} practice calls`} open. End ${max === 1 ? 'it' : 'one'} to start another.`;

/**
 * Whether a browser page at `origin` may open calls: the page's own origin only (PUBLIC_URL's
 * when set, else the host the request was sent to), so another site cannot open calls from its
 * visitors' browsers. A request without an Origin header is not from a web page and is let in.
 */
export function originAllowed(
  origin: string | undefined,
  host: string | undefined,
  config: Pick<Config, 'PUBLIC_URL'>,
): boolean {
  if (origin === undefined) return true;
  let parsed: URL;
  try {
    parsed = new URL(origin);
  } catch {
    return false;
  }
  if (config.PUBLIC_URL) {
    try {
      return parsed.origin === new URL(config.PUBLIC_URL).origin;
    } catch {
      return false;
    }
  }
  return (parsed.protocol === 'http:' || parsed.protocol === 'https:') && parsed.host === host;
}

function publicEngine(info: EngineInfo) {
  return {
    capability: info.capability,
    engine: info.engine,
    label: info.label,
    quality: info.quality,
  };
}

/** The /api/voice WebSocket: one live role-play call per connection (docs/voice.md). */
export async function registerVoiceRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const decodeQueue = new DecodeQueue();
  const { config, providers } = ctx;
  /** Live calls on this process: the cap, the recogniser's load hint, and shutdown. */
  const calls = new Set<VoiceSession>();
  // Each call can hold a decoder and a core's share of CPU: past the cap, callers hear "busy".
  const maxLiveCalls = config.MAX_LIVE_CALLS ?? defaultMaxLiveCalls();
  // Calls with the speech in the browser cost only the homeowner's words: their own cap, sized
  // from what their turns cost the event loop at the fastest pace allowed (machine.ts).
  const maxTextCalls = config.MAX_TEXT_CALLS ?? defaultMaxTextCalls(undefined, config.TURN_INTERVAL_MS);
  ctx.log.info({ maxLiveCalls, maxTextCalls }, 'live call cap');
  if (providers.has('vad')) providers.get('vad').warm?.(2 * cpuCores());
  // Warm decoders for the first calls (not for the test suite's many short-lived servers, where
  // each would cost a quarter second of CPU; the pool's own test covers them).
  const warmDecoders = providers.has('liveStt') && config.NODE_ENV !== 'test';
  if (warmDecoders) providers.get('liveStt').warm?.(Math.min(maxLiveCalls, 2 * cpuCores()), 0);
  // Live calls keep what was said: each saves its transcript before its socket is told to go.
  ctx.shutdown.onShutdown(() => Promise.allSettled([...calls].map((s) => s.handleClose())).then(() => {}));
  /** At `start`: room for a call of this kind? (A socket's kind is known only then.) */
  const admit = (modes: { input: string; output: string }): string | null => {
    const kind = modes.input === 'audio' || modes.output === 'audio' ? 'audio' : 'text';
    let live = 0;
    for (const s of calls) if (s.load === kind) live++;
    return live >= (kind === 'audio' ? maxLiveCalls : maxTextCalls) ? BUSY_MESSAGE : null;
  };

  const perClient = config.MAX_CALLS_PER_CLIENT;
  const checkOrigin = async (request: FastifyRequest) => {
    if (!originAllowed(request.headers.origin, request.headers.host, config)) {
      throw new HttpError(403, 'forbidden_origin', 'Calls can only be opened from this site’s own pages.');
    }
  };

  app.get(
    '/api/voice',
    { websocket: true, config: limitConfig(config, 'voice'), preValidation: checkOrigin },
    (socket: CallSocket, request: FastifyRequest) => {
      const send = (event: object) => {
        if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(event));
      };
      // Sockets of both kinds together; each kind is checked again when its call starts.
      if (calls.size >= maxLiveCalls + maxTextCalls) {
        send({ type: 'error', code: 'busy', message: BUSY_MESSAGE });
        socket.close(1013, 'busy');
        return;
      }
      // At most MAX_CALLS_PER_CLIENT sockets per address: what arrives meanwhile waits its turn.
      if (perClient <= 0) {
        const handle = openCall(socket, send);
        if (handle) socket.on('message', handle);
        return;
      }
      const key = `call:${request.ip}`;
      const early: [Buffer | ArrayBuffer | Buffer[], boolean][] = [];
      let handle: ((data: Buffer | ArrayBuffer | Buffer[], isBinary: boolean) => void) | null = null;
      let gone = false;
      let taken = false;
      socket.on('message', (data, isBinary) =>
        handle ? handle(data, isBinary) : early.push([data, isBinary]),
      );
      const release = () => {
        gone = true;
        if (taken) void ctx.limits.release(key);
        taken = false;
      };
      socket.on('close', release);
      socket.on('error', release);
      void ctx.limits.acquire(key, perClient).then(
        (ok) => {
          taken = ok;
          if (gone) return release();
          if (!ok) {
            send({ type: 'error', code: 'too-many-calls', message: tooManyCallsMessage(perClient) });
            socket.close(1013, 'too-many-calls');
            return;
          }
          handle = openCall(socket, send);
          for (const [data, isBinary] of early.splice(0)) handle?.(data, isBinary);
        },
        (err: unknown) => {
          ctx.log.error({ err }, 'call limit store failed');
          send({ type: 'error', code: 'busy', message: BUSY_MESSAGE });
          socket.close(1011, 'busy');
        },
      );
    },
  );

  /**
   * Starts a call on an admitted socket; returns its message handler (null when the engines
   * are unavailable and the socket was closed).
   */
  function openCall(
    socket: CallSocket,
    send: (event: object) => void,
  ): ((data: Buffer | ArrayBuffer | Buffer[], isBinary: boolean) => void) | null {
    let deps: VoiceSessionDeps;
    try {
      const vad = providers.get('vad');
      const live = providers.get('liveStt');
      const engines = (['stt', 'brain', 'tts', 'vad', 'liveStt'] as const)
        .map((k) => providers.info(k))
        .filter((i): i is EngineInfo => Boolean(i))
        .map(publicEngine);
      deps = {
        stt: providers.get('stt'),
        tts: providers.get('tts'),
        brain: providers.get('brain'),
        vad,
        decodeQueue,
        engines,
        log: ctx.log,
        createStream: () => live.create({ activeCalls: calls.size - 1 }),
        onTurnLatency: (ms) =>
          recordVoiceTurnLatency(ms, {
            brain: providers.info('brain')?.engine,
            tts: providers.info('tts')?.engine,
          }),
        admit,
        beginCall: (id) => beginCall(ctx, id),
        saveTranscript: (id, transcript, durationSec, used) =>
          saveCallTranscript(ctx, id, { transcript, durationSec, engines: used }),
        idleMs: config.CALL_IDLE_SEC * 1000,
        turnPace: { intervalMs: config.TURN_INTERVAL_MS, burst: config.TURN_BURST },
      };
    } catch (err) {
      ctx.log.error({ err }, 'live call engines unavailable');
      send({
        type: 'error',
        code: 'engine-unavailable',
        message: 'Live calls are unavailable on this server right now. Please try again later.',
      });
      socket.close(1011, 'engine-unavailable');
      return null;
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
    calls.add(session);
    // Detectors for calls that may follow this one are made now, in the background, up to the
    // cap: a burst of new calls then takes ready ones instead of each loading a model in turn.
    if (providers.has('vad'))
      providers.get('vad').warm?.(Math.min(maxLiveCalls, 2 * cpuCores() + 2 * calls.size));
    // Decoders likewise (90 MB each): 2 per core ready for the next calls, refilled as they are
    // taken. More would only move a burst's model loads earlier (docs/voice.md).
    if (warmDecoders)
      providers
        .get('liveStt')
        .warm?.(Math.min(maxLiveCalls - calls.size + 1, 2 * cpuCores()), calls.size - 1);
    const untrack = trackLiveCall();
    const onMessage = (data: Buffer | ArrayBuffer | Buffer[], isBinary: boolean) => {
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
    };
    const gone = () => {
      calls.delete(session);
      untrack();
      void session.handleClose();
    };
    socket.on('close', gone);
    socket.on('error', gone);
    // A socket closed while the call was being admitted: nothing more will come.
    if (socket.readyState !== socket.OPEN) gone();
    return onMessage;
  }
}
