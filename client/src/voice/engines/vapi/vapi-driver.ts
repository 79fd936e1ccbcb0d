import type { Stage } from '@core/stages';
import { NOT_INITIALIZED_MESSAGE, START_FAILED_MESSAGE } from '../../call-state';
import type { ClientConfig } from '../../engine-registry';
import type { StartCallOptions, VoiceMessage } from '../../types';
import { StartStageError, type EngineDriver, type EngineHooks } from '../../wrapper';

/** The parts of @vapi-ai/web this engine uses. */
export interface VapiLike {
  on(event: string, listener: (payload?: any) => void): unknown;
  removeAllListeners?(): unknown;
  start(assistantId: string): Promise<unknown | null>;
  stop(): Promise<void> | void;
  setMuted?(muted: boolean): void;
}

export type VapiFactory = (publicKey: string) => Promise<VapiLike> | VapiLike;

export function assistantFor(config: ClientConfig | null, stage: Stage): string | undefined {
  const id = config?.vapi?.assistants?.[stage];
  return typeof id === 'string' && id.trim() ? id : undefined;
}

/**
 * The hosted engine: Vapi's web SDK with the public key and one assistant per stage from
 * GET /api/config. Vapi raises its own events; this driver forwards them and lets the wrapper
 * own the end-of-call status update.
 */
export class VapiVoiceDriver implements EngineDriver {
  readonly kind = 'vapi' as const;
  private vapi: VapiLike | null = null;
  private stopping = false;

  constructor(
    private readonly config: ClientConfig | null,
    private readonly create: VapiFactory,
  ) {}

  setMuted(muted: boolean): void {
    this.vapi?.setMuted?.(muted);
  }

  async start(options: StartCallOptions, hooks: EngineHooks): Promise<void> {
    this.stopping = false;
    const assistantId = await hooks.step('initialization', () => {
      if (!this.config?.vapi?.publicKey) throw new StartStageError('initialization', NOT_INITIALIZED_MESSAGE);
      const id = assistantFor(this.config, options.stage);
      if (!id)
        throw new StartStageError('initialization', `No assistant configured for stage: ${options.stage}`);
      return id;
    });
    const vapi = await hooks.step('daily-call-object-creation', () =>
      this.create(this.config!.vapi!.publicKey),
    );
    this.vapi = vapi;
    vapi.on('call-start', () => hooks.emit('call-start'));
    vapi.on('call-end', () => {
      if (!this.stopping) hooks.ended();
    });
    vapi.on('speech-start', () => hooks.emit('speech-start'));
    vapi.on('speech-end', () => hooks.emit('speech-end'));
    vapi.on('volume-level', (level: number) =>
      hooks.emit('volume-level', typeof level === 'number' ? level : 0),
    );
    vapi.on('message', (m: VoiceMessage) => {
      if (m && typeof m === 'object') hooks.emit('message', m);
    });
    vapi.on('error', (err: unknown) =>
      hooks.emit('error', err ?? { message: 'An error occurred with the voice connection' }),
    );
    vapi.on('call-start-progress', (p) => hooks.emit('call-start-progress', p));
    const call = await hooks.step('web-call-creation', async () => {
      try {
        return await vapi.start(assistantId);
      } catch (err) {
        throw new StartStageError(
          'web-call-creation',
          err instanceof Error && err.message ? err.message : START_FAILED_MESSAGE,
          err,
        );
      }
    });
    if (!call) throw new StartStageError('web-call-creation', START_FAILED_MESSAGE);
  }

  async stop(): Promise<void> {
    this.stopping = true;
    const vapi = this.vapi;
    this.vapi = null;
    if (!vapi) return;
    try {
      await vapi.stop();
    } finally {
      vapi.removeAllListeners?.();
    }
  }
}
